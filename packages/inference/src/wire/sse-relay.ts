import { holds, indexOfBytes } from './bytes.js';
import { EVENT_END, eventEnd, SseBytes } from './sse-bytes.js';
import type { UsageRequest } from './upstream-request.js';
import { isBlank, isNull, KeptUsage, USAGE_KEY, usageKeyAt, valueEnd } from './usage-bytes.js';

const FINAL_USAGE_MARK = Buffer.from('"choices":[]');
const CHOICES_KEY = Buffer.from('"choices":[');
const MODEL_KEY = Buffer.from('"model":');
const NOTHING = Buffer.alloc(0);
const [SPACE, QUOTE, BACKSLASH, COMMA, CLOSE_ARRAY] = [32, 34, 92, 44, 93];

/** The index of the closing quote of the JSON string whose opening quote is at `start`; -1 if cut off. */
function stringEnd(bytes: Buffer, start: number, limit: number): number {
  for (let i = start + 1; i < limit; i++) {
    const c = bytes[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/**
 * Whether the event is a final usage-only chunk (`"choices":[]`). Its `choices` follows its `model` value in
 * what vLLM sends (`from`), so that place is looked at first.
 */
function hasNoChoices(bytes: Buffer, start: number, from: number, end: number): boolean {
  let at = from;
  while (at < end && (isBlank(bytes[at]) || bytes[at] === COMMA)) at++;
  if (holds(bytes, CHOICES_KEY, at)) return bytes[at + CHOICES_KEY.length] === CLOSE_ARRAY;
  return indexOfBytes(bytes, FINAL_USAGE_MARK, start, end) !== -1;
}

/** Where the chunk's `model` string value is, between its quotes; undefined when it has none. */
function modelValue(bytes: Buffer, start: number, end: number): { start: number; end: number } | undefined {
  const key = indexOfBytes(bytes, MODEL_KEY, start, end);
  if (key === -1) return undefined;
  let quote = key + MODEL_KEY.length;
  while (bytes[quote] === SPACE) quote++;
  if (bytes[quote] !== QUOTE) return undefined;
  const close = stringEnd(bytes, quote, end);
  return close === -1 ? undefined : { start: quote + 1, end: close };
}

/** The bytes from `start` to `end` replaced. */
interface Edit {
  start: number;
  end: number;
  replacement: Buffer;
}

/**
 * Relays an upstream OpenAI-style SSE stream event by event as bytes, without decoding or parsing chunks.
 * Every chunk names the public model id, as non-stream answers do (model servers name what they loaded, e.g.
 * vLLM its first `--served-model-name`). Usage is always requested upstream with running totals; the relay
 * remembers the latest totals and removes them from the chunks unless the client asked for them. `"usage":`
 * and `"model":` cannot occur unescaped inside a JSON string, so a byte search finds only keys (an OpenAI
 * chunk has no other `model` key than its own). A chunk that needs no change is passed on as the same bytes.
 */
export class SseRelay {
  private readonly events = new SseBytes();
  private readonly kept = new KeptUsage();
  /** The public model id as it appears inside a JSON string. */
  private readonly model: Buffer;
  private edits: Edit[] = [];

  constructor(
    private readonly usage: UsageRequest,
    model: string,
  ) {
    this.model = Buffer.from(JSON.stringify(model).slice(1, -1));
  }

  /** Feeds upstream bytes; returns the bytes to write to the client (empty when nothing is complete yet). */
  push(chunk: Buffer): Buffer {
    const complete = this.events.complete(chunk);
    if (complete === undefined) return NOTHING;
    for (let start = 0, end = eventEnd(complete, 0); end !== -1; end = eventEnd(complete, start)) {
      this.edit(complete, start, end);
      start = end + EVENT_END.length;
    }
    if (this.edits.length === 0) return complete;
    let length = complete.length;
    for (const edit of this.edits) length += edit.replacement.length - (edit.end - edit.start);
    const out = Buffer.allocUnsafe(length);
    let from = 0;
    let at = 0;
    for (const edit of this.edits) {
      for (let i = from; i < edit.start; i++) out[at++] = complete[i] as number;
      for (let i = 0; i < edit.replacement.length; i++) out[at++] = edit.replacement[i] as number;
      from = edit.end;
    }
    for (let i = from; i < complete.length; i++) out[at++] = complete[i] as number;
    this.edits.length = 0;
    return out;
  }

  /** Whatever is left without a terminating blank line (a stream cut short). */
  get incomplete(): Buffer {
    return this.events.takeRest() ?? NOTHING;
  }

  /** Records the edits of the event from `start` to `end` (its blank line follows), in order. */
  private edit(bytes: Buffer, start: number, end: number): void {
    const model = modelValue(bytes, start, end);
    const usage = this.usageEdit(bytes, start, end, model === undefined ? start : model.end + 1);
    if (usage?.end === end + EVENT_END.length) {
      this.edits.push(usage);
      return;
    }
    const rename = model && !this.namesPublicModel(bytes, model) ? { ...model, replacement: this.model } : undefined;
    if (rename && usage && usage.start < rename.start) this.edits.push(usage, rename);
    else {
      if (rename) this.edits.push(rename);
      if (usage) this.edits.push(usage);
    }
  }

  /** Whether the model value from `start` to `end` already is the public id. */
  private namesPublicModel(bytes: Buffer, { start, end }: { start: number; end: number }): boolean {
    return end - start === this.model.length && holds(bytes, this.model, start);
  }

  /**
   * Remembers the event's usage and removes it unless the client asked for it: a running total from a chunk,
   * or the whole event, its blank line included, when it is the final usage-only chunk.
   */
  private usageEdit(bytes: Buffer, start: number, end: number, choicesFrom: number): Edit | undefined {
    const key = usageKeyAt(bytes, start, end);
    if (key === -1) return undefined;
    const valueStart = key + USAGE_KEY.length;
    const valueStop = valueEnd(bytes, valueStart, end);
    if (valueStop === -1) return undefined;
    if (!isNull(bytes, valueStart)) this.kept.keep(bytes, valueStart, valueStop);
    if (hasNoChoices(bytes, start, choicesFrom, end))
      return this.usage.final ? undefined : { start, end: end + EVENT_END.length, replacement: NOTHING };
    if (this.usage.continuous) return undefined;
    let before = key - 1;
    while (isBlank(bytes[before])) before--;
    if (bytes[before] === COMMA) return { start: before, end: valueStop, replacement: NOTHING };
    let after = valueStop;
    while (isBlank(bytes[after])) after++;
    return { start: key, end: bytes[after] === COMMA ? after + 1 : valueStop, replacement: NOTHING };
  }

  /** The raw JSON of the latest usage object seen, for accounting after the stream ends or is abandoned. */
  get lastUsage(): string | undefined {
    return this.kept.text;
  }
}
