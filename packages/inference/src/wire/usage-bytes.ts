import { holds, indexOfBytes } from './bytes.js';

/** The `"usage":` key of an OpenAI chunk. */
export const USAGE_KEY = Buffer.from('"usage":');
const NULL = Buffer.from('null');
const [SPACE, TAB, LF, CR, OPEN, CLOSE] = [32, 9, 10, 13, 123, 125];

/** Whether `byte` is JSON whitespace. */
export const isBlank = (byte: number | undefined) => byte === SPACE || byte === TAB || byte === LF || byte === CR;

/** Whether the JSON value at `at` is `null`. */
export const isNull = (bytes: Buffer, at: number) => holds(bytes, NULL, at);

/** The end (exclusive) of the JSON value at `start`: `null` or an object without strings holding braces; -1 if cut off. */
export function valueEnd(bytes: Buffer, start: number, limit: number): number {
  if (isNull(bytes, start)) return start + NULL.length;
  let depth = 0;
  for (let i = start; i < limit; i++) {
    const c = bytes[i];
    if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Where the `"usage":` key of the event from `start` to `end` is; -1 if it has none. vLLM sends usage as a
 * chunk's last member, so that place is looked at first, from the end.
 */
export function usageKeyAt(bytes: Buffer, start: number, end: number): number {
  const chunkEnd = lastNonBlank(bytes, end - 1);
  const usageEnd = lastNonBlank(bytes, chunkEnd - 1);
  if (bytes[chunkEnd] === CLOSE && bytes[usageEnd] === CLOSE) {
    let open = usageEnd;
    for (let depth = 0; open > start; open--) {
      if (bytes[open] === CLOSE) depth++;
      else if (bytes[open] === OPEN && --depth === 0) break;
    }
    const key = lastNonBlank(bytes, open - 1) + 1 - USAGE_KEY.length;
    if (holds(bytes, USAGE_KEY, key)) return key;
  }
  return indexOfBytes(bytes, USAGE_KEY, start, end);
}

/** The index of the last non-blank byte at or before `at`. */
function lastNonBlank(bytes: Buffer, at: number): number {
  while (isBlank(bytes[at])) at--;
  return at;
}

/**
 * The latest usage value of a stream, its bytes copied from chunk to chunk and decoded only when read (by
 * accounting, or by a translation's last event).
 */
export class KeptUsage {
  private bytes = Buffer.allocUnsafe(256);
  private length = 0;

  keep(bytes: Buffer, start: number, end: number): void {
    if (end - start > this.bytes.length) this.bytes = Buffer.allocUnsafe(2 * (end - start));
    for (let i = start; i < end; i++) this.bytes[i - start] = bytes[i] as number;
    this.length = end - start;
  }

  /** The raw JSON of the latest usage kept; undefined before any. */
  get text(): string | undefined {
    return this.length === 0 ? undefined : this.bytes.toString('utf8', 0, this.length);
  }
}
