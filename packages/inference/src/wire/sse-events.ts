import { holds, indexOfBytes, joinBytes } from './bytes.js';
import { EVENT_END, eventEnd, SseBytes } from './sse-bytes.js';

const DATA = Buffer.from('data:');
const LINE_DATA = Buffer.from('\ndata:');
const DONE = Buffer.from('[DONE]');
const isBlank = (byte: number | undefined) => byte === 32 || byte === 9 || byte === 10 || byte === 13;

/** Where the `data:` payload of the event from `start` to `end` starts, blanks skipped; -1 when it has none. */
function dataStart(bytes: Buffer, start: number, end: number): number {
  let at = holds(bytes, DATA, start) ? start : -1;
  if (at === -1) {
    const line = indexOfBytes(bytes, LINE_DATA, start, end);
    if (line === -1) return -1;
    at = line + 1;
  }
  at += DATA.length;
  while (at < end && isBlank(bytes[at])) at++;
  return at;
}

/** The end of the payload from `start` to `end`, trailing blanks left out. */
function dataEnd(bytes: Buffer, start: number, end: number): number {
  while (end > start && isBlank(bytes[end - 1])) end--;
  return end;
}

/** What a translation writes: text, or bytes where it copies the upstream's. */
export type StreamOutput = string | Buffer;

/** The pieces of one upstream chunk's translation as one write. */
function joined(pieces: StreamOutput[]): StreamOutput {
  if (pieces.length === 1) return pieces[0] as StreamOutput;
  if (pieces.every((piece) => typeof piece === 'string')) return pieces.join('');
  return joinBytes(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}

const UPSTREAM_BROKE = 'the model server stopped responding mid-stream';
const UPSTREAM_FAILED = 'the model server failed while generating';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A translator of an upstream OpenAI chat SSE stream into another API's events (a `StreamRelay`): it cuts the
 * upstream bytes into events, keeping one split across chunks until it is complete, and hands each parsed
 * chunk to `chunk` and `[DONE]` to `finish`. An upstream error chunk, or an upstream that ends or breaks before
 * the translation is `done`, gets the API's failure (`fail`).
 */
export abstract class ChatStreamTranslator {
  private readonly events = new SseBytes();
  /** Set once the translation has written its last event; nothing is written after it. */
  protected done = false;

  /** The events for one upstream chunk. */
  protected abstract chunk(chunk: Json): string;
  /** The events that end the stream after the upstream's `[DONE]`. */
  protected abstract finish(): string;
  /** The events that end the stream as failed, with `message`. */
  protected abstract fail(message: string): string;

  /**
   * The events for a chunk's data (`bytes` from `start` to `end`) translated without parsing it, where a
   * subclass can; else undefined.
   */
  protected unparsed(_bytes: Buffer, _start: number, _end: number): StreamOutput | undefined {
    return undefined;
  }

  /** Feeds upstream bytes; returns the events to write (empty when nothing is complete yet). */
  push(chunk: Buffer): StreamOutput {
    const complete = this.events.complete(chunk);
    if (complete === undefined) return '';
    let out: StreamOutput = '';
    let pieces: StreamOutput[] | undefined;
    for (let start = 0, end = eventEnd(complete, 0); end !== -1; end = eventEnd(complete, start)) {
      const piece = this.event(complete, start, end);
      start = end + EVENT_END.length;
      if (piece.length === 0) continue;
      if (out.length === 0) out = piece;
      else if (pieces === undefined) pieces = [out, piece];
      else pieces.push(piece);
    }
    return pieces === undefined ? out : joined(pieces);
  }

  /** What to write when the upstream body has ended: an unterminated last event, or a failure if the stream never finished. */
  get incomplete(): StreamOutput {
    const rest = this.events.takeRest();
    const out = rest === undefined ? '' : this.event(rest, 0, rest.length);
    return this.done ? out : joined([out, this.fail(UPSTREAM_BROKE)]);
  }

  /** What to write when the upstream connection breaks. */
  get broken(): string {
    return this.done ? '' : this.fail(UPSTREAM_BROKE);
  }

  private event(bytes: Buffer, start: number, end: number): StreamOutput {
    const from = dataStart(bytes, start, end);
    if (from === -1 || this.done) return '';
    const to = dataEnd(bytes, from, end);
    if (to - from === DONE.length && holds(bytes, DONE, from)) return this.finish();
    const unparsed = this.unparsed(bytes, from, to);
    if (unparsed !== undefined) return unparsed;
    let chunk: unknown;
    try {
      chunk = JSON.parse(bytes.toString('utf8', from, to));
    } catch {
      return '';
    }
    if (!isObject(chunk)) return '';
    return chunk.error === undefined ? this.chunk(chunk) : this.fail(UPSTREAM_FAILED);
  }
}
