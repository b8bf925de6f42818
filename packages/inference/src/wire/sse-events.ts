/** The `data:` payload of one SSE event (without its blank-line terminator); undefined when it has none. */
function dataOf(event: string): string | undefined {
  const at = event.startsWith('data:') ? 0 : event.indexOf('\ndata:') + 1;
  if (at === 0 && !event.startsWith('data:')) return undefined;
  return event.slice(at + 5).trim();
}

const UPSTREAM_BROKE = 'the model server stopped responding mid-stream';

/**
 * A translator of an upstream OpenAI chat SSE stream into another API's events (a `StreamRelay`): it cuts the
 * decoded text into events, keeping one split across chunks until it is complete, and hands each event's data
 * to `data`. An upstream that ends or breaks before the translation is `done` gets the API's failure (`fail`).
 */
export abstract class ChatStreamTranslator {
  private pending = '';
  /** Set once the translation has written its last event; nothing is written after it. */
  protected done = false;

  /** The events to write for one upstream event's data (`[DONE]` included). */
  protected abstract data(data: string): string;
  /** The events that end the stream as failed, with `message`. */
  protected abstract fail(message: string): string;

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
    return data === undefined ? '' : this.data(data);
  }
}
