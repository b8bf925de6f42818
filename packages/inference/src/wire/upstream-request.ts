import { type ChatMessage, type ChatRequest, requestedOutputTokens } from './chat.js';

/** vLLM-internal fields a client must not set through a shared gateway. */
const INTERNAL_FIELDS = [
  'kv_transfer_params',
  'ec_transfer_params',
  'vllm_xargs',
  'logits_processors',
  'priority',
  'cache_salt',
];

/** Inbound assistant `reasoning_content` (llama.cpp, older vLLM) becomes `reasoning`, which current vLLM reads. */
function renameReasoning(message: ChatMessage): ChatMessage {
  if (message.reasoning_content === undefined) return message;
  const { reasoning_content, ...rest } = message;
  return rest.reasoning === undefined ? { ...rest, reasoning: reasoning_content } : rest;
}

const STREAM_USAGE = { include_usage: true, continuous_usage_stats: true };
const STREAM_USAGE_MEMBER = `"stream_options":${JSON.stringify(STREAM_USAGE)},`;

/**
 * The client's JSON text as the upstream body when nothing in it needs changing but, on a stream without
 * `stream_options`, the usage request, which is added as the first member; undefined when the body must be
 * rebuilt. Saves serialising the whole prompt again.
 */
function asSent(
  request: ChatRequest,
  raw: string,
  upstreamModel: string,
  outputCap: number | undefined,
): string | undefined {
  if (request.model !== upstreamModel || request.stream_options !== undefined || raw.charCodeAt(0) === 0xfeff)
    return undefined;
  if (Array.isArray(request.tools) && request.tools.length === 0) return undefined;
  for (const field of INTERNAL_FIELDS) if (field in request) return undefined;
  for (const message of request.messages) if (message.reasoning_content !== undefined) return undefined;
  let members = request.stream === true ? STREAM_USAGE_MEMBER : '';
  if (outputCap !== undefined && requestedOutputTokens(request) !== outputCap) {
    if ('max_tokens' in request || 'max_completion_tokens' in request) return undefined;
    members += `"max_tokens":${outputCap},`;
  }
  if (!members) return raw;
  const open = raw.indexOf('{') + 1;
  return `${raw.slice(0, open)}${members}${raw.slice(open)}`;
}

/**
 * The body sent upstream: the upstream's model name, the output cap admission granted per choice (as
 * `max_completion_tokens` when the client used it, else `max_tokens`), usage always requested on streams (so
 * usage is known even when the client leaves early), empty tool lists dropped (new vLLM rejects them),
 * internal fields removed. `raw`, the JSON text `request` was parsed from, is forwarded as it is when none of
 * this changes anything.
 */
export function toUpstreamChatBody(
  request: ChatRequest,
  upstreamModel: string,
  raw: string | undefined,
  /** Undefined: the client's own limit, or none. */
  outputCap: number | undefined,
): string {
  const unchanged = raw === undefined ? undefined : asSent(request, raw, upstreamModel, outputCap);
  if (unchanged !== undefined) return unchanged;
  const body: Record<string, unknown> = { ...request, model: upstreamModel };
  if (outputCap !== undefined && requestedOutputTokens(request) !== outputCap) {
    if (request.max_completion_tokens != null) body.max_completion_tokens = outputCap;
    if (request.max_tokens != null || request.max_completion_tokens == null) body.max_tokens = outputCap;
  }
  for (const field of INTERNAL_FIELDS) delete body[field];
  if (request.stream === true) body.stream_options = STREAM_USAGE;
  else delete body.stream_options;
  if (Array.isArray(request.tools) && request.tools.length === 0) {
    delete body.tools;
    delete body.tool_choice;
  }
  if (request.messages.some((m) => m.reasoning_content !== undefined))
    body.messages = request.messages.map(renameReasoning);
  return JSON.stringify(body);
}

/** What the client asked to see of usage in a stream. */
export interface UsageRequest {
  /** A final `choices: []` chunk with the totals. */
  final: boolean;
  /** Running usage on every chunk. */
  continuous: boolean;
}

export function usageRequestOf(request: ChatRequest): UsageRequest {
  const options = request.stream_options;
  // As in vLLM, include_usage defaults to true once stream_options is present.
  const final = options != null && options.include_usage !== false;
  return { final, continuous: final && options?.continuous_usage_stats === true };
}
