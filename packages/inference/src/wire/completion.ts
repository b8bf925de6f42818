/** Token counts as the seed lists them. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function normaliseMessage(raw: unknown): Json {
  const message = isObject(raw) ? raw : {};
  const { reasoning_content, ...rest } = message;
  return {
    role: 'assistant',
    content: null,
    refusal: null,
    annotations: null,
    audio: null,
    function_call: null,
    ...rest,
    tool_calls: Array.isArray(message.tool_calls) ? message.tool_calls : [],
    reasoning: message.reasoning ?? reasoning_content ?? null,
  };
}

function normaliseChoice(raw: unknown, index: number): Json {
  const choice = isObject(raw) ? raw : {};
  return {
    index,
    logprobs: null,
    finish_reason: null,
    stop_reason: null,
    token_ids: null,
    routed_experts: null,
    ...choice,
    message: normaliseMessage(choice.message),
  };
}

function normaliseUsage(raw: unknown): Usage {
  const usage = isObject(raw) ? raw : {};
  const prompt = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const completion = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  return {
    ...usage,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: usage.prompt_tokens_details ?? null,
  };
}

/**
 * A non-streaming chat completion in the exact shape the seed lists (vLLM's `model_dump()`): every field
 * present, nulls included, `tool_calls` always an array, `reasoning` rather than `reasoning_content`,
 * and the public model id.
 */
export function normaliseCompletion(raw: unknown, model: string): Json {
  const body = isObject(raw) ? raw : {};
  const choices = Array.isArray(body.choices) ? body.choices : [];
  return {
    id: typeof body.id === 'string' ? body.id : `chatcmpl-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: typeof body.created === 'number' ? body.created : Math.floor(Date.now() / 1000),
    model,
    choices: choices.map((choice, i) =>
      normaliseChoice(choice, isObject(choice) && typeof choice.index === 'number' ? choice.index : i),
    ),
    service_tier: body.service_tier ?? null,
    system_fingerprint: body.system_fingerprint ?? null,
    usage: normaliseUsage(body.usage),
    prompt_logprobs: body.prompt_logprobs ?? null,
    prompt_token_ids: body.prompt_token_ids ?? null,
    prompt_text: body.prompt_text ?? null,
    kv_transfer_params: body.kv_transfer_params ?? null,
  };
}
