/** The `data:` payload of one SSE event (without its blank-line terminator); undefined when it has none. */
function dataOf(event: string): string | undefined {
  const at = event.startsWith('data:') ? 0 : event.indexOf('\ndata:') + 1;
  if (at === 0 && !event.startsWith('data:')) return undefined;
  return event.slice(at + 5).trim();
}

const UPSTREAM_BROKE = 'the model server stopped responding mid-stream';
const UPSTREAM_FAILED = 'the model server failed while generating';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A translator of an upstream OpenAI chat SSE stream into another API's events (a `StreamRelay`): it cuts the
 * decoded text into events, keeping one split across chunks until it is complete, and hands each parsed chunk
 * to `chunk` and `[DONE]` to `finish`. An upstream error chunk, or an upstream that ends or breaks before the
 * translation is `done`, gets the API's failure (`fail`).
 */
export abstract class ChatStreamTranslator {
  private pending = '';
  /** Set once the translation has written its last event; nothing is written after it. */
  protected done = false;

  /** The events for one upstream chunk. */
  protected abstract chunk(chunk: Json): string;
  /** The events that end the stream after the upstream's `[DONE]`. */
  protected abstract finish(): string;
  /** The events that end the stream as failed, with `message`. */
  protected abstract fail(message: string): string;

  /** The events for a chunk's raw data translated without parsing it, where a subclass can; else undefined. */
  protected unparsed(_data: string): string | undefined {
    return undefined;
  }

  /** Feeds decoded upstream text; returns the events to write ('' when nothing is complete yet). */
  push(text: string): string {
    this.pending += text;
    let out = '';
    let start = 0;
    for (let end = this.pending.indexOf('\n\n'); end !== -1; end = this.pending.indexOf('\n\n', start)) {
      out += this.event(this.pending.slice(start, end));
      start = end + 2;
    }
    if (start > 0) this.pending = this.pending.slice(start);
    return out;
  }

  /** What to write when the upstream body has ended: an unterminated last event, or a failure if the stream never finished. */
  get incomplete(): string {
    const rest = this.pending;
    this.pending = '';
    const out = rest.trim() === '' ? '' : this.event(rest);
    return this.done ? out : out + this.fail(UPSTREAM_BROKE);
  }

  /** What to write when the upstream connection breaks. */
  get broken(): string {
    return this.done ? '' : this.fail(UPSTREAM_BROKE);
  }

  private event(raw: string): string {
    const data = dataOf(raw);
    if (data === undefined || this.done) return '';
    if (data === '[DONE]') return this.finish();
    const unparsed = this.unparsed(data);
    if (unparsed !== undefined) return unparsed;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return '';
    }
    if (!isObject(chunk)) return '';
    return chunk.error === undefined ? this.chunk(chunk) : this.fail(UPSTREAM_FAILED);
  }
}
