import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { GbnfJsonSchema, LlamaGrammar } from 'node-llama-cpp';
import { type ChatRequest, requestedOutputTokens } from '../wire/chat.js';
import { normaliseCompletion, type Usage } from '../wire/completion.js';
import { usageRequestOf } from '../wire/upstream-request.js';
import { EngineHttpError, sendJson } from './http-io.js';
import { EngineInputError, toChatHistory } from './messages.js';
import type { GenerateParams, LlamaRuntime } from './runtime.js';

const DEFAULT_TEMPERATURE = 0.8;

const usageOf = (prompt: number, completion: number): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return [stop];
  return Array.isArray(stop) ? stop.filter((s): s is string => typeof s === 'string' && s.length > 0) : undefined;
}

async function grammarFor(runtime: LlamaRuntime, format: unknown): Promise<LlamaGrammar | undefined> {
  if (typeof format !== 'object' || format === null) return undefined;
  const { type, json_schema } = format as { type?: string; json_schema?: { schema?: unknown } };
  if (type === 'json_object') return runtime.createJsonGrammar(undefined);
  if (type !== 'json_schema') return undefined;
  if (!json_schema?.schema)
    throw new EngineHttpError(400, 'response_format json_schema needs json_schema.schema', 'response_format');
  try {
    return await runtime.createJsonGrammar(json_schema.schema as GbnfJsonSchema);
  } catch (error) {
    throw new EngineHttpError(400, `unsupported JSON schema: ${(error as Error).message}`, 'response_format');
  }
}

function numberOr(value: unknown, fallback: number | undefined): number | undefined {
  return typeof value === 'number' ? value : fallback;
}

/** Turns a request into generation parameters, refusing what the engine cannot do, as vLLM would. */
async function prepare(runtime: LlamaRuntime, modelName: string, request: ChatRequest, signal: AbortSignal) {
  if (request.model !== undefined && request.model !== modelName) {
    throw new EngineHttpError(404, `The model \`${String(request.model)}\` does not exist.`, 'model');
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    throw new EngineHttpError(400, 'messages must be a non-empty array', 'messages');
  }
  if ((request.n ?? 1) !== 1) throw new EngineHttpError(400, 'the embedded engine generates one choice (n=1)', 'n');
  let history: GenerateParams['history'];
  try {
    history = toChatHistory(request.messages);
  } catch (error) {
    if (error instanceof EngineInputError) throw new EngineHttpError(400, error.message, error.param);
    throw error;
  }
  const promptTokens = runtime.countPromptTokens(history);
  const requested = requestedOutputTokens(request);
  const maxTokens = requested ?? runtime.contextSize - promptTokens;
  if (promptTokens + maxTokens > runtime.contextSize || maxTokens < 1) {
    throw new EngineHttpError(
      400,
      `This model's maximum context length is ${runtime.contextSize} tokens. However, you requested ${promptTokens + Math.max(maxTokens, 0)} tokens (${promptTokens} in the messages, ${Math.max(maxTokens, 0)} in the completion). Please reduce the length of the messages or completion.`,
      'messages',
    );
  }
  const params: GenerateParams = {
    history,
    maxTokens,
    temperature: numberOr(request.temperature, DEFAULT_TEMPERATURE) as number,
    topP: numberOr(request.top_p, undefined),
    seed: numberOr(request.seed, undefined),
    stop: stopList(request.stop),
    grammar: await grammarFor(runtime, request.response_format),
    signal,
  };
  return { params, promptTokens };
}

/**
 * The completion's `system_fingerprint` (a string, as the spec and OpenAI give it): stands for the model served
 * and its context size, so it changes when the engine's configuration does.
 */
export const systemFingerprint = (runtime: Pick<LlamaRuntime, 'contextSize'>, modelName: string): string =>
  `fp_${createHash('sha256').update(`${modelName}\n${runtime.contextSize}`).digest('hex').slice(0, 12)}`;

/** `POST /v1/chat/completions` in vLLM's shapes: a full completion, or SSE chunks ending in `[DONE]`. */
export async function handleChat(
  runtime: LlamaRuntime,
  modelName: string,
  request: ChatRequest,
  response: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const { params, promptTokens } = await prepare(runtime, modelName, request, signal);
  const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
  const created = Math.floor(Date.now() / 1000);
  const fingerprint = systemFingerprint(runtime, modelName);
  if (request.stream !== true) {
    let content = '';
    const result = await runtime.generate(params, (text) => {
      content += text;
    });
    const completion = {
      id,
      created,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: result.finishReason,
          stop_reason: result.stopReason,
        },
      ],
      usage: usageOf(promptTokens, result.completionTokens),
      system_fingerprint: fingerprint,
    };
    return sendJson(response, 200, normaliseCompletion(completion, modelName));
  }

  const usage = usageRequestOf(request);
  const head = `{"id":"${id}","object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(modelName)},"system_fingerprint":"${fingerprint}","choices":`;
  const send = (choices: string, completionTokens: number) => {
    const running = usage.continuous ? `,"usage":${JSON.stringify(usageOf(promptTokens, completionTokens))}` : '';
    response.write(`data: ${head}${choices}${running}}\n\n`);
  };
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send('[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]', 0);
  const result = await runtime.generate(params, (text, tokens) => {
    send(`[{"index":0,"delta":{"content":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]`, tokens);
  });
  if (signal.aborted) return void response.end();
  send(
    `[{"index":0,"delta":{},"logprobs":null,"finish_reason":"${result.finishReason}","stop_reason":${JSON.stringify(result.stopReason)}}]`,
    result.completionTokens,
  );
  if (usage.final)
    response.write(`data: ${head}[],"usage":${JSON.stringify(usageOf(promptTokens, result.completionTokens))}}\n\n`);
  response.end('data: [DONE]\n\n');
}
