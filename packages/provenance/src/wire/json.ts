function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Date) return value.toUTCString();
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * Serialises like AiiDA's Flask app: keys sorted at every level, ASCII only, compact, newline-terminated,
 * datetimes as RFC 1123 GMT strings.
 */
export function aiidaJson(value: unknown): string {
  return `${escapeNonAscii(JSON.stringify(sortKeys(value)))}\n`;
}
