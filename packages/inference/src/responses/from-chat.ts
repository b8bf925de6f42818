import { randomBytes } from 'node:crypto';
import { CUSTOM_INPUT, type OfferedTool, offeredTools } from './to-chat.js';
import type { ResponsesRequest } from './wire.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An id with OpenAI's prefix for its kind (`resp`, `msg`, `rs`, `fc`, `ctc`, `call`). */
export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

/** What every output of one response shares: its id, creation time, public model id and the request it echoes. */
export interface ResponseContext {
  id: string;
  createdAt: number;
  model: string;
  request: ResponsesRequest;
  /** The offered tools by name: calls of custom tools go back as `custom_tool_call`s, of namespaced ones with their namespace. */
  tools: ReadonlyMap<string, OfferedTool>;
}

export function responseContext(request: ResponsesRequest, now = Date.now()): ResponseContext {
  return {
    id: newId('resp'),
    createdAt: Math.floor(now / 1000),
    model: request.model,
    request,
    tools: new Map(offeredTools(request).map((offered) => [offered.tool.name as string, offered])),
  };
}

/** The `usage` object: every field present, zeros where the model server reported nothing. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

const count = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);

/** Chat usage → Responses usage (cached prompt tokens and reasoning tokens when the model server reports them). */
export function responsesUsage(raw: unknown): ResponsesUsage {
  const usage = isObject(raw) ? raw : {};
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  const prompt = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: count(prompt.cached_tokens) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: count(completion.reasoning_tokens) },
    total_tokens: input + output,
  };
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** The status a chat `finish_reason` ends a response with, and why it is incomplete. */
export function statusOf(finishReason: unknown): { status: ResponseStatus; incomplete_details: Json | null } {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The response object around `fields`: everything the request set, echoed; `store` false, nothing kept. */
export function responseObject(context: ResponseContext, fields: Json): Json {
  const { request } = context;
  return {
    id: context.id,
    object: 'response',
    created_at: context.createdAt,
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: context.model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    service_tier: 'default',
    store: false,
    temperature: request.temperature ?? 1,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: 'disabled',
    usage: null,
    metadata: request.metadata ?? {},
    ...fields,
  };
}

export const reasoningItem = (id: string, text: string): Json => ({
  type: 'reasoning',
  id,
  summary: text === '' ? [] : [{ type: 'summary_text', text }],
});

export const outputText = (text: string): Json => ({ type: 'output_text', text, annotations: [], logprobs: [] });

export const messageItem = (id: string, text: string, status: string): Json => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: text === '' && status === 'in_progress' ? [] : [outputText(text)],
});

/** The raw input of a custom tool's call: its one string argument, or the arguments as they came. */
function customInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObject(parsed) && typeof parsed[CUSTOM_INPUT] === 'string') return parsed[CUSTOM_INPUT];
  } catch {}
  return args;
}

/** Whether a call of `name` is a custom tool's, which goes back as a `custom_tool_call` with its raw input. */
export const isCustomCall = (context: ResponseContext, name: string) => context.tools.get(name)?.tool.type === 'custom';

/** A tool call as its output item: a `function_call` (with its tool's namespace, if any), or a `custom_tool_call`. */
export function callItem(
  context: ResponseContext,
  call: { callId: string; name: string; args: string },
  status: string,
): Json {
  const { callId, name, args } = call;
  if (isCustomCall(context, name))
    return { type: 'custom_tool_call', id: newId('ctc'), call_id: callId, name, input: customInput(args), status };
  const item: Json = { type: 'function_call', id: newId('fc'), call_id: callId, name, arguments: args, status };
  const namespace = context.tools.get(name)?.namespace;
  if (namespace !== undefined) item.namespace = namespace;
  return item;
}

/** A non-streaming chat completion → the response: reasoning, then the message, then the calls. */
export function toResponse(raw: unknown, context: ResponseContext, now = Date.now()): Json {
  const body = isObject(raw) ? raw : {};
  const choice = Array.isArray(body.choices) && isObject(body.choices[0]) ? body.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const output: Json[] = [];
  const reasoning = message.reasoning ?? message.reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') output.push(reasoningItem(newId('rs'), reasoning));
  if (typeof message.content === 'string' && message.content !== '')
    output.push(messageItem(newId('msg'), message.content, 'completed'));
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
  for (const call of calls) {
    const fn = isObject(call.function) ? call.function : {};
    const callId = typeof call.id === 'string' ? call.id : newId('call');
    const args = typeof fn.arguments === 'string' ? fn.arguments : '';
    output.push(callItem(context, { callId, name: String(fn.name ?? ''), args }, 'completed'));
  }
  const { status, incomplete_details } = statusOf(choice.finish_reason);
  return responseObject(context, {
    status,
    completed_at: status === 'completed' ? Math.floor(now / 1000) : null,
    incomplete_details,
    output,
    usage: responsesUsage(body.usage),
  });
}
