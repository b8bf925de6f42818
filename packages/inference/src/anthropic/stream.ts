import { holds, indexOfBytes, joinBytes } from '../wire/bytes.js';
import { ChatStreamTranslator, type StreamOutput } from '../wire/sse-events.js';
import { isNull, KeptUsage, USAGE_KEY, usageKeyAt, valueEnd } from '../wire/usage-bytes.js';
import { anthropicErrorEvent } from './errors.js';
import { type AnthropicUsage, newMessageId, stopReasonOf, THINKING_SIGNATURE } from './from-openai.js';

type Json = Record<string, unknown>;

interface ToolCall {
  id: string;
  name: string;
  /** Argument fragments not yet sent (the call's block is not open yet). */
  args: string;
  sent: boolean;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PING = 'event: ping\ndata: {"type":"ping"}\n\n';
const MESSAGE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';
/** A single-choice delta holding nothing but content, then an unfinished choice end, as vLLM and the engine send. */
const CONTENT_ONLY = Buffer.from('"choices":[{"index":0,"delta":{"content":"');
const LOGPROBS_NULL = Buffer.from(',"logprobs":null');
const UNFINISHED_CHOICE = Buffer.from(',"finish_reason":null}]');
const TEXT_DELTA_END = Buffer.from('}}\n\n');

/** The index just past the closing quote of the JSON string whose contents start at `from`; -1 if unterminated. */
function stringLiteralEnd(bytes: Buffer, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = bytes[i];
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return -1;
}

const blockDelta = (index: number, delta: string) =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${delta}}\n\n`;

const toolUseBlock = (tool: ToolCall) =>
  `{"type":"tool_use","id":${JSON.stringify(tool.id)},"name":${JSON.stringify(tool.name)},"input":{}}`;

export interface AnthropicStreamOptions {
  /** The public model id the client asked for. */
  model: string;
  stopSequences: readonly string[] | undefined;
  /** `input_tokens` for `message_start` if the upstream's first chunk carries no usage. */
  estimatedInputTokens: number;
}

/**
 * Translates an upstream OpenAI chat SSE stream (usage always requested, running) into Anthropic's event
 * sequence, as the SDK's MessageStream enforces it: `message_start`, then per block `content_block_start`
 * (the first followed by a `ping`), deltas and `content_block_stop` (a thinking block gets one
 * `signature_delta` first), then `message_delta` with cumulative usage and `message_stop`. Blocks are never
 * reopened: a tool call that starts while another is open has its arguments buffered and is sent whole after.
 * An upstream error, or an upstream that ends without `[DONE]`, becomes an `error` event.
 */
export class AnthropicStream extends ChatStreamTranslator {
  private started = false;
  private blocks = 0;
  private open: 'text' | 'thinking' | 'tool' | undefined;
  private openTool: ToolCall | undefined;
  private readonly tools = new Map<number, ToolCall>();
  private finishReason: unknown = null;
  private matchedStop: unknown = null;
  private hasUsage = false;
  /** Usage from the unparsed path, parsed when read. */
  private readonly keptUsage = new KeptUsage();
  private usageKept = false;
  private promptTokens = 0;
  private completionTokens = 0;
  private cachedTokens = 0;
  private deltaHead: { index: number; bytes: Buffer } | undefined;
  readonly id = newMessageId();
  /** Anthropic's keep-alive event, which its SDKs skip. */
  readonly keepalive = 'event: ping\ndata: {"type": "ping"}\n\n';

  constructor(private readonly options: AnthropicStreamOptions) {
    super();
  }

  /** Whether the upstream has reported usage yet. */
  get usageReported(): boolean {
    this.takeKeptUsage();
    return this.hasUsage;
  }

  /** The latest usage the upstream reported (running totals), for accounting even when the client left early. */
  get usage(): AnthropicUsage {
    this.takeKeptUsage();
    return {
      input_tokens: (this.hasUsage ? this.promptTokens : this.options.estimatedInputTokens) - this.cachedTokens,
      output_tokens: this.completionTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: this.cachedTokens,
    };
  }

  protected fail(message: string): string {
    this.done = true;
    return anthropicErrorEvent('api_error', message);
  }

  protected override unparsed(bytes: Buffer, start: number, end: number): StreamOutput | undefined {
    return this.started ? this.textOnlyChunk(bytes, start, end) : undefined;
  }

  private messageStart(): string {
    this.started = true;
    const message = {
      id: this.id,
      type: 'message',
      role: 'assistant',
      content: [],
      model: this.options.model,
      stop_reason: null,
      stop_sequence: null,
      usage: this.usage,
    };
    return `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message })}\n\n`;
  }

  private takeKeptUsage(): void {
    if (!this.usageKept) return;
    this.usageKept = false;
    try {
      const usage: unknown = JSON.parse(this.keptUsage.text ?? 'null');
      if (isObject(usage)) this.takeUsage(usage);
    } catch {
      // A usage object the upstream broke: the previous totals stand.
    }
  }

  private takeUsage(usage: Json): void {
    this.usageKept = false;
    this.hasUsage = true;
    this.promptTokens = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
    this.completionTokens = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
    const details = usage.prompt_tokens_details;
    this.cachedTokens = isObject(details) && typeof details.cached_tokens === 'number' ? details.cached_tokens : 0;
  }

  /**
   * The hot path: a chunk whose only change is a content string (nearly every chunk of a long answer) is
   * translated without decoding or parsing it, by copying its JSON string literal's bytes as they are.
   * Anything else: `undefined`.
   */
  private textOnlyChunk(bytes: Buffer, start: number, end: number): StreamOutput | undefined {
    const at = indexOfBytes(bytes, CONTENT_ONLY, start, end);
    if (at === -1) return undefined;
    const literalStart = at + CONTENT_ONLY.length - 1;
    const literalEnd = stringLiteralEnd(bytes, literalStart + 1, end);
    if (literalEnd === -1 || bytes[literalEnd] !== 125) return undefined;
    const choiceEnd = literalEnd + 1 + (holds(bytes, LOGPROBS_NULL, literalEnd + 1) ? LOGPROBS_NULL.length : 0);
    if (!holds(bytes, UNFINISHED_CHOICE, choiceEnd)) return undefined;
    const usageAt = usageKeyAt(bytes, choiceEnd, end);
    const valueStart = usageAt + USAGE_KEY.length;
    const valueStop = usageAt === -1 ? -1 : valueEnd(bytes, valueStart, end);
    if (valueStop !== -1 && !isNull(bytes, valueStart)) {
      this.keptUsage.keep(bytes, valueStart, valueStop);
      this.usageKept = true;
    }
    if (literalEnd === literalStart + 2) return '';
    const opening = this.open === 'text' ? '' : this.startBlock('text', '{"type":"text","text":""}');
    const delta = [this.textDeltaHead(), bytes.subarray(literalStart, literalEnd), TEXT_DELTA_END];
    return joinBytes(opening === '' ? delta : [Buffer.from(opening), ...delta]);
  }

  /** The bytes of a text delta event of the open block up to its text's JSON literal. */
  private textDeltaHead(): Buffer {
    const index = this.blocks - 1;
    if (this.deltaHead?.index !== index)
      this.deltaHead = {
        index,
        bytes: Buffer.from(
          `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":`,
        ),
      };
    return this.deltaHead.bytes;
  }

  protected chunk(chunk: Json): string {
    if (isObject(chunk.usage)) this.takeUsage(chunk.usage);
    let out = this.started ? '' : this.messageStart();
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return out;
    const delta = isObject(choice.delta) ? choice.delta : {};
    const reasoning = delta.reasoning ?? delta.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') {
      if (this.open !== 'thinking')
        out += this.startBlock('thinking', '{"type":"thinking","thinking":"","signature":""}');
      out += blockDelta(this.blocks - 1, `{"type":"thinking_delta","thinking":${JSON.stringify(reasoning)}}`);
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      if (this.open !== 'text') out += this.startBlock('text', '{"type":"text","text":""}');
      out += blockDelta(this.blocks - 1, `{"type":"text_delta","text":${JSON.stringify(delta.content)}}`);
    }
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) out += this.toolCall(call);
    if (choice.finish_reason != null) {
      this.finishReason = choice.finish_reason;
      this.matchedStop = choice.stop_reason;
    }
    return out;
  }

  private toolCall(call: unknown): string {
    if (!isObject(call)) return '';
    const index = typeof call.index === 'number' ? call.index : 0;
    const fn = isObject(call.function) ? call.function : {};
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    let tool = this.tools.get(index);
    if (tool === undefined) {
      if (typeof call.id !== 'string') return '';
      tool = { id: call.id, name: typeof fn.name === 'string' ? fn.name : '', args: '', sent: false };
      this.tools.set(index, tool);
      if (this.open !== 'tool') return this.startTool(tool) + this.toolArgs(tool, args);
    }
    return this.toolArgs(tool, args);
  }

  private startTool(tool: ToolCall): string {
    const out = this.startBlock('tool', toolUseBlock(tool));
    this.openTool = tool;
    tool.sent = true;
    return out;
  }

  private toolArgs(tool: ToolCall, args: string): string {
    if (args === '') return '';
    if (tool !== this.openTool) {
      tool.args += args;
      return '';
    }
    return blockDelta(this.blocks - 1, `{"type":"input_json_delta","partial_json":${JSON.stringify(args)}}`);
  }

  private startBlock(kind: 'text' | 'thinking' | 'tool', contentBlock: string): string {
    let out = this.closeBlock();
    const index = this.blocks++;
    this.open = kind;
    out += `event: content_block_start\ndata: {"type":"content_block_start","index":${index},"content_block":${contentBlock}}\n\n`;
    return index === 0 ? out + PING : out;
  }

  private closeBlock(): string {
    if (this.open === undefined) return '';
    const index = this.blocks - 1;
    let out =
      this.open === 'thinking'
        ? blockDelta(index, `{"type":"signature_delta","signature":"${THINKING_SIGNATURE}"}`)
        : '';
    out += `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`;
    this.open = undefined;
    this.openTool = undefined;
    return out;
  }

  protected finish(): string {
    let out = this.started ? '' : this.messageStart();
    for (const tool of this.tools.values()) {
      if (tool.sent) continue;
      const args = tool.args;
      tool.args = '';
      out += this.startTool(tool) + this.toolArgs(tool, args);
    }
    out += this.closeBlock();
    const { input_tokens, output_tokens, cache_read_input_tokens } = this.usage;
    const stop = stopReasonOf(this.finishReason, this.matchedStop, this.options.stopSequences, this.tools.size > 0);
    const messageDelta = {
      type: 'message_delta',
      delta: stop,
      usage: { input_tokens, output_tokens, cache_read_input_tokens },
    };
    this.done = true;
    return `${out}event: message_delta\ndata: ${JSON.stringify(messageDelta)}\n\n${MESSAGE_STOP}`;
  }
}
