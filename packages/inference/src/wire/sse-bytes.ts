import { indexOfBytes, lastIndexOfBytes } from './bytes.js';

/** The blank line that ends an SSE event. */
export const EVENT_END = Buffer.from('\n\n');
const NEWLINE = 10;

/**
 * An SSE byte stream cut at event boundaries, without decoding it: each chunk yields the bytes of the events
 * it completes (each ending in its blank line), and a split event is kept until its end arrives. Events end
 * with ASCII newlines, so complete events are always whole UTF-8. Only the new chunk is searched, so a long
 * event arriving in many chunks is copied once.
 */
export class SseBytes {
  private pending: Buffer[] = [];

  /** The bytes of the events `chunk` completes, or undefined when none is complete yet. */
  complete(chunk: Buffer): Buffer | undefined {
    const length = chunk.length;
    if (this.pending.length === 0 && chunk[length - 1] === NEWLINE && chunk[length - 2] === NEWLINE) return chunk;
    // -1 with a blank line split across chunks: its second newline is the chunk's first byte.
    const last = lastIndexOfBytes(chunk, EVENT_END);
    if (last === -1 && !this.splitBlankLine(chunk)) {
      if (chunk.length > 0) this.pending.push(chunk);
      return undefined;
    }
    const data = this.pending.length === 0 ? chunk : Buffer.concat([...this.pending, chunk]);
    const end = data.length - chunk.length + last + EVENT_END.length;
    this.pending = end === data.length ? [] : [data.subarray(end)];
    return end === data.length ? data : data.subarray(0, end);
  }

  /** What is left without a terminating blank line (a stream cut short), taken. */
  takeRest(): Buffer | undefined {
    const rest = this.pending.length === 0 ? undefined : Buffer.concat(this.pending);
    this.pending = [];
    return rest;
  }

  /** Whether the pending bytes end with a newline that `chunk`'s first byte completes into a blank line. */
  private splitBlankLine(chunk: Buffer): boolean {
    const previous = this.pending[this.pending.length - 1];
    return previous !== undefined && previous[previous.length - 1] === NEWLINE && chunk[0] === NEWLINE;
  }
}

/** The end of the event starting at `from` in complete events' bytes (where its blank line is); -1 past the last. */
export const eventEnd = (complete: Buffer, from: number): number => indexOfBytes(complete, EVENT_END, from);
