import type { UsageRequest } from './upstream-request.js';

const EVENT_END = '\n\n';
const USAGE_KEY = '"usage":';
const FINAL_USAGE_MARK = '"choices":[]';

/** The end (exclusive) of the JSON value starting at `start`: `null` or an object without strings holding braces. */
function valueEnd(text: string, start: number): number {
  if (text.startsWith('null', start)) return start + 4;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Relays an upstream OpenAI-style SSE stream event by event without parsing chunks as JSON. Usage is always
 * requested upstream with running totals; the relay remembers the latest totals and removes them from the
 * chunks unless the client asked for them (`"usage":` cannot occur unescaped inside a JSON string, so a string
 * search finds only the key). Events that need no change are passed through as they came.
 */
export class SseRelay {
  private pending = '';
  /** The raw JSON of the latest usage object seen, for accounting after the stream ends or is abandoned. */
  lastUsage: string | undefined;

  constructor(
    private readonly usage: UsageRequest,
    private readonly rename?: { from: string; to: string },
  ) {}

  /** Feeds decoded upstream text; returns the text to write to the client ('' when nothing is complete yet). */
  push(text: string): string {
    this.pending += text;
    const lastEnd = this.pending.lastIndexOf(EVENT_END);
    if (lastEnd === -1) return '';
    const complete = this.pending.slice(0, lastEnd + EVENT_END.length);
    this.pending = this.pending.slice(lastEnd + EVENT_END.length);
    if (!complete.includes(USAGE_KEY) && this.rename === undefined) return complete;
    let out = '';
    let start = 0;
    while (start < complete.length) {
      const end = complete.indexOf(EVENT_END, start) + EVENT_END.length;
      out += this.relayEvent(complete.slice(start, end));
      start = end;
    }
    return out;
  }

  /** Whatever is left without a terminating blank line (a stream cut short). */
  get incomplete(): string {
    return this.pending;
  }

  private relayEvent(event: string): string {
    const renamed = this.rename ? event.replace(`"model":"${this.rename.from}"`, `"model":"${this.rename.to}"`) : event;
    const key = renamed.indexOf(USAGE_KEY);
    if (key === -1) return renamed;
    const valueStart = key + USAGE_KEY.length;
    const end = valueEnd(renamed, valueStart);
    if (end === -1) return renamed;
    const value = renamed.slice(valueStart, end);
    if (value !== 'null') this.lastUsage = value;
    if (renamed.includes(FINAL_USAGE_MARK)) return this.usage.final ? renamed : '';
    if (this.usage.continuous) return renamed;
    const before = renamed.lastIndexOf(',', key);
    if (before !== -1 && renamed.slice(before + 1, key).trim() === '')
      return renamed.slice(0, before) + renamed.slice(end);
    const after = renamed.indexOf(',', end);
    return renamed.slice(0, key) + renamed.slice(after === -1 ? end : after + 1);
  }
}
