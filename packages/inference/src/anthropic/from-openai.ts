import { randomBytes } from 'node:crypto';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `msg_` and 24 random base62-ish characters, like Anthropic's ids. */
export const newMessageId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** The opaque signature of a thinking block; clients echo it back and the gateway drops it. */
export const THINKING_SIGNATURE = 'atrium';

/**
 * OpenAI `finish_reason` (+ vLLM's `stop_reason`, the matched stop string or a token id) → Anthropic
 * `stop_reason` and `stop_sequence`. Tool calls finished with `stop` (some parsers) are still `tool_use`.
 */
export function stopReasonOf(
  finishReason: unknown,
  matched: unknown,
  stopSequences: readonly string[] | undefined,
  hasToolCalls: boolean,
): { stop_reason: StopReason; stop_sequence: string | null } {
  if (finishReason === 'tool_calls' || hasToolCalls) return { stop_reason: 'tool_use', stop_sequence: null };
  if (finishReason === 'length') return { stop_reason: 'max_tokens', stop_sequence: null };
  if (finishReason === 'content_filter') return { stop_reason: 'refusal', stop_sequence: null };
  if (typeof matched === 'string' && stopSequences?.includes(matched)) {
    return { stop_reason: 'stop_sequence', stop_sequence: matched };
  }
  return { stop_reason: 'end_turn', stop_sequence: null };
}

/** Anthropic's `input_tokens` excludes cache reads, which are reported apart. */
export function usageOf(raw: unknown): AnthropicUsage {
  const usage = isObject(raw) ? raw : {};
  const prompt = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const details = usage.prompt_tokens_details;
  const cached = isObject(details) && typeof details.cached_tokens === 'number' ? details.cached_tokens : 0;
  return {
    input_tokens: prompt - cached,
    output_tokens: typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/** Tool arguments the model produced; unparseable ones become `{}` (the text is never logged). */
export function parseToolInput(text: unknown): Json {
  if (typeof text !== 'string' || text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Anthropic's `Message`, as the gateway fills it. */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Json[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: AnthropicUsage;
}

/** A non-streaming OpenAI chat completion → an Anthropic `Message` (llm-gateway.md §2.9). */
export function toAnthropicMessage(
  raw: unknown,
  model: string,
  stopSequences: readonly string[] | undefined,
): AnthropicMessage {
  const body = isObject(raw) ? raw : {};
  const choice = Array.isArray(body.choices) && isObject(body.choices[0]) ? body.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const content: Json[] = [];
  const reasoning = message.reasoning ?? message.reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') {
    content.push({ type: 'thinking', thinking: reasoning, signature: THINKING_SIGNATURE });
  }
  if (typeof message.content === 'string' && message.content !== '') {
    content.push({ type: 'text', text: message.content, citations: null });
  }
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
  for (const call of toolCalls) {
    const fn = isObject(call.function) ? call.function : {};
    content.push({ type: 'tool_use', id: call.id, name: fn.name, input: parseToolInput(fn.arguments) });
  }
  return {
    id: newMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    ...stopReasonOf(choice.finish_reason, choice.stop_reason, stopSequences, toolCalls.length > 0),
    usage: usageOf(body.usage),
  };
}
