/** Datetimes come back as `Date` from PostgreSQL and as naive-UTC text (`2015-06-04 10:58:44.000000`) from SQLite. */
export function toDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
}

/** JSON columns are parsed objects on PostgreSQL and text on SQLite. */
export function toJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  return JSON.parse(value);
}

/** How a bound datetime must look to compare correctly with the stored column. */
export function timeParameter(dialect: 'sqlite' | 'postgres', instant: Date): string | Date {
  if (dialect === 'postgres') return instant;
  const iso = instant.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}
