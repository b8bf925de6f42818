import type { ServedUsage } from '../http/admission.js';
import { ChatStreamTranslator } from '../wire/sse-events.js';
import {
  callItem,
  isCustomCall,
  messageItem,
  newId,
  outputText,
  type ResponseContext,
  reasoningItem,
  responseObject,
  responsesUsage,
  statusOf,
} from './from-chat.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reasoning or message item whose text is being streamed. */
interface OpenText {
  kind: 'reasoning' | 'message';
  id: string;
  index: number;
  text: string;
}

/** An upstream tool call; `item` once its output item has been announced. */
interface Call {
  callId: string;
  name: string;
  args: string;
  item?: Json;
  index?: number;
}

/**
 * Translates an upstream OpenAI chat SSE stream (usage always requested) into the Responses API's events, in
 * the order the SDKs check: `response.created` and `response.in_progress`; per output item
 * `response.output_item.added`, its part and deltas (reasoning as summary text, message text as output text,
 * function call arguments), their `done` events and `response.output_item.done`; then `response.completed`, or
 * `response.incomplete` when the output limit or a content filter ended it. Each event carries its
 * `sequence_number`. The arguments of one call at a time are streamed; calls that start meanwhile, and custom
 * tool calls (whose raw input is inside their arguments), are sent whole at the end. An upstream error, or an
 * upstream that ends without `[DONE]`, becomes an `error` event and `response.failed`.
 */
export class ResponsesStream extends ChatStreamTranslator {
  private sequence = 0;
  private started = false;
  private readonly output: Json[] = [];
  private text: OpenText | undefined;
  private streaming: Call | undefined;
  private readonly calls = new Map<number, Call>();
  private finishReason: unknown = null;
  /** The latest usage the upstream reported (running totals), for accounting even when the client left early. */
  usage: ServedUsage | undefined;

  constructor(
    private readonly context: ResponseContext,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  private emit(type: string, fields: Json): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...fields })}\n\n`;
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    const response = responseObject(this.context, {});
    return this.emit('response.created', { response }) + this.emit('response.in_progress', { response });
  }

  protected chunk(chunk: Json): string {
    if (isObject(chunk.usage)) this.usage = chunk.usage as ServedUsage;
    let out = this.start();
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return out;
    const delta = isObject(choice.delta) ? choice.delta : {};
    const reasoning = delta.reasoning ?? delta.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') out += this.textDelta('reasoning', reasoning);
    if (typeof delta.content === 'string' && delta.content !== '') out += this.textDelta('message', delta.content);
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) out += this.toolCall(call);
    if (choice.finish_reason != null) this.finishReason = choice.finish_reason;
    return out;
  }

  private textDelta(kind: OpenText['kind'], delta: string): string {
    let out = '';
    if (this.text?.kind !== kind) out += this.openText(kind);
    const text = this.text as OpenText;
    text.text += delta;
    const at = { item_id: text.id, output_index: text.index };
    if (kind === 'reasoning')
      return out + this.emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta });
    return out + this.emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
  }

  private openText(kind: OpenText['kind']): string {
    const out = this.closeOpen();
    const text: OpenText = {
      kind,
      id: newId(kind === 'reasoning' ? 'rs' : 'msg'),
      index: this.output.length,
      text: '',
    };
    this.text = text;
    const item = kind === 'reasoning' ? reasoningItem(text.id, '') : messageItem(text.id, '', 'in_progress');
    this.output.push(item);
    const at = { item_id: text.id, output_index: text.index };
    const added = this.emit('response.output_item.added', { output_index: text.index, item });
    if (kind === 'reasoning')
      return `${out}${added}${this.emit('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } })}`;
    return `${out}${added}${this.emit('response.content_part.added', { ...at, content_index: 0, part: outputText('') })}`;
  }

  private closeText(): string {
    const open = this.text;
    if (!open) return '';
    this.text = undefined;
    const { id, index, text } = open;
    const at = { item_id: id, output_index: index };
    let out: string;
    if (open.kind === 'reasoning') {
      const part = { type: 'summary_text', text };
      out =
        this.emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text }) +
        this.emit('response.reasoning_summary_part.done', { ...at, summary_index: 0, part });
      this.output[index] = reasoningItem(id, text);
    } else {
      out =
        this.emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }) +
        this.emit('response.content_part.done', { ...at, content_index: 0, part: outputText(text) });
      this.output[index] = messageItem(id, text, 'completed');
    }
    return out + this.emit('response.output_item.done', { output_index: index, item: this.output[index] });
  }

  private closeOpen(): string {
    return this.closeText() + this.closeCall();
  }

  private toolCall(delta: unknown): string {
    if (!isObject(delta)) return '';
    const index = typeof delta.index === 'number' ? delta.index : 0;
    const fn = isObject(delta.function) ? delta.function : {};
    let call = this.calls.get(index);
    if (!call) {
      call = { callId: typeof delta.id === 'string' ? delta.id : newId('call'), name: '', args: '' };
      this.calls.set(index, call);
    }
    if (call.name === '' && typeof fn.name === 'string') call.name = fn.name;
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    call.args += args;
    if (call === this.streaming) return args === '' ? '' : this.argumentsDelta(call, args);
    if (call.item || this.streaming || call.name === '' || isCustomCall(this.context, call.name)) return '';
    return this.openCall(call);
  }

  private openCall(call: Call): string {
    const out = this.closeText();
    this.streaming = call;
    call.index = this.output.length;
    call.item = callItem(this.context, { ...call, args: '' }, 'in_progress');
    this.output.push(call.item);
    const added = this.emit('response.output_item.added', { output_index: call.index, item: call.item });
    return out + added + (call.args === '' ? '' : this.argumentsDelta(call, call.args));
  }

  private argumentsDelta(call: Call, delta: string): string {
    return this.emit('response.function_call_arguments.delta', {
      item_id: call.item?.id,
      output_index: call.index,
      delta,
    });
  }

  private closeCall(): string {
    const call = this.streaming;
    if (!call?.item || call.index === undefined) return '';
    this.streaming = undefined;
    const item: Json = { ...call.item, arguments: call.args, status: 'completed' };
    this.output[call.index] = item;
    return (
      this.emit('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: call.index,
        name: call.name,
        arguments: call.args,
      }) + this.emit('response.output_item.done', { output_index: call.index, item })
    );
  }

  /** A call that was not streamed, sent whole: announced, its arguments (or custom input) in one delta, done. */
  private wholeCall(call: Call): string {
    const item = callItem(this.context, call, 'completed');
    const index = this.output.length;
    this.output.push(item);
    const at = { item_id: item.id, output_index: index };
    let out: string;
    if (item.type === 'custom_tool_call') {
      const input = item.input as string;
      out =
        this.emit('response.output_item.added', {
          output_index: index,
          item: { ...item, input: '', status: 'in_progress' },
        }) +
        this.emit('response.custom_tool_call_input.delta', { ...at, delta: input }) +
        this.emit('response.custom_tool_call_input.done', { ...at, input });
    } else {
      out =
        this.emit('response.output_item.added', {
          output_index: index,
          item: { ...item, arguments: '', status: 'in_progress' },
        }) +
        this.emit('response.function_call_arguments.delta', { ...at, delta: call.args }) +
        this.emit('response.function_call_arguments.done', { ...at, name: call.name, arguments: call.args });
    }
    return out + this.emit('response.output_item.done', { output_index: index, item });
  }

  protected finish(): string {
    let out = this.start() + this.closeOpen();
    for (const call of this.calls.values()) if (!call.item) out += this.wholeCall(call);
    this.done = true;
    const { status, incomplete_details } = statusOf(this.finishReason);
    const response = responseObject(this.context, {
      status,
      completed_at: status === 'completed' ? Math.floor(this.now() / 1000) : null,
      incomplete_details,
      output: this.output,
      usage: responsesUsage(this.usage),
    });
    return out + this.emit(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
  }

  protected fail(message: string): string {
    const out = this.start();
    this.done = true;
    const error = { code: 'server_error', message };
    const response = responseObject(this.context, {
      status: 'failed',
      error,
      output: this.output,
      usage: responsesUsage(this.usage),
    });
    return out + this.emit('error', { ...error, param: null }) + this.emit('response.failed', { response });
  }
}
