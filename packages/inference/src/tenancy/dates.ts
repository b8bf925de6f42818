const DAY_MS = 86_400_000;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant an end date given by a person means: a day alone (`2027-12-31`) is inclusive, so it ends when that
 * day ends (UTC); a date with a time is that instant. NaN when it is neither.
 */
export function parseEndDate(text: string): number {
  const trimmed = text.trim();
  const instant = Date.parse(trimmed);
  return DAY_ONLY.test(trimmed) ? instant + DAY_MS : instant;
}

/** The last day (UTC, `YYYY-MM-DD`) within an end instant: the inverse of `parseEndDate` for a day. */
export const lastDayBefore = (ends: number): string => new Date(ends - 1).toISOString().slice(0, 10);
