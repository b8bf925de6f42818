import type { UsageRequest } from './upstream-request.js';

const EVENT_END = '\n\n';
const USAGE_KEY = '"usage":';
const FINAL_USAGE_MARK = '"choices":[]';
const MODEL_KEY = '"model":';

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

/** The end (index of the closing quote) of the JSON string whose opening quote is at `start`; -1 if cut off. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return -1;
}

/**
 * Relays an upstream OpenAI-style SSE stream event by event without parsing chunks as JSON. Every chunk names
 * the public model id, as non-stream answers do (model servers name what they loaded, e.g. vLLM its first
 * `--served-model-name`). Usage is always requested upstream with running totals; the relay remembers the
 * latest totals and removes them from the chunks unless the client asked for them. `"usage":` and `"model":`
 * cannot occur unescaped inside a JSON string, so a string search finds only keys (an OpenAI chunk has no
 * other `model` key than its own). Events that need no change are passed through as they came.
 */
export class SseRelay {
  private pending = '';
  /** The raw JSON of the latest usage object seen, for accounting after the stream ends or is abandoned. */
  lastUsage: string | undefined;

  /** The public model id as it appears inside a JSON string. */
  private readonly model: string;

  constructor(
    private readonly usage: UsageRequest,
    model: string,
  ) {
    this.model = JSON.stringify(model).slice(1, -1);
  }

  /** Feeds decoded upstream text; returns the text to write to the client ('' when nothing is complete yet). */
  push(text: string): string {
    this.pending += text;
    const lastEnd = this.pending.lastIndexOf(EVENT_END);
    if (lastEnd === -1) return '';
    const complete = this.pending.slice(0, lastEnd + EVENT_END.length);
    this.pending = this.pending.slice(lastEnd + EVENT_END.length);
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

  /** The event with its chunk's `model` value replaced by the public id (unchanged when it already says it). */
  private withPublicModel(event: string): string {
    const key = event.indexOf(MODEL_KEY);
    if (key === -1) return event;
    let quote = key + MODEL_KEY.length;
    while (event.charCodeAt(quote) === 32) quote++;
    if (event.charCodeAt(quote) !== 34) return event;
    const end = stringEnd(event, quote);
    if (end === -1) return event;
    if (end - quote - 1 === this.model.length && event.startsWith(this.model, quote + 1)) return event;
    return `${event.slice(0, quote + 1)}${this.model}${event.slice(end)}`;
  }

  private relayEvent(event: string): string {
    const renamed = this.withPublicModel(event);
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
