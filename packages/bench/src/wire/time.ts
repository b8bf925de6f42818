let lastMs: number | undefined;
let lastText = '';

/** RFC 3339 in whole seconds, as Bencher (which stores Unix seconds) answers. */
export function toDateTime(ms: number): string {
  // Rows made together share their times, so long lists format the same instant over and over.
  if (ms !== lastMs) {
    lastText = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    lastMs = ms;
  }
  return lastText;
}

export const toOptionalDateTime = (ms: number | null): string | null => (ms === null ? null : toDateTime(ms));

/** Milliseconds of an RFC 3339 string, undefined when invalid. */
export function parseDateTime(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
