/** The `data:` payload of one SSE event (without its blank-line terminator); undefined when it has none. */
function dataOf(event: string): string | undefined {
  const at = event.startsWith('data:') ? 0 : event.indexOf('\ndata:') + 1;
  if (at === 0 && !event.startsWith('data:')) return undefined;
  return event.slice(at + 5).trim();
}

/**
 * Cuts decoded upstream SSE text into events and hands each event's data to `translate`, for translators
 * that turn an OpenAI chat stream into another API's events. Events split across chunks are kept until complete.
 */
export class SseEvents {
  private pending = '';

  constructor(private readonly translate: (data: string) => string) {}

  /** Feeds text; returns the translations of the events it completed ('' when none). */
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

  /** The translation of an unterminated last event, once the upstream body has ended. */
  rest(): string {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? '' : this.event(rest);
  }

  private event(raw: string): string {
    const data = dataOf(raw);
    return data === undefined ? '' : this.translate(data);
  }
}
