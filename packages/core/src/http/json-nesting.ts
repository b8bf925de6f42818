const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (string contents skipped). One pass, no
 * allocation, stopping at the first level too deep: V8's JSON.parse spends about half a second on a mebibyte of `[`.
 * Text that is not JSON gets an answer too; the parser that follows refuses it.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}
