import type { ServerResponse } from 'node:http';
import type { ChatMessage } from '../wire/chat.js';
import { EngineHttpError, sendJson } from './http-io.js';
import { EngineInputError, toChatHistory } from './messages.js';
import type { LlamaRuntime } from './runtime.js';

/** `POST /tokenize` in vLLM's chat form (`{model, messages}` → `{count, max_model_len}`): the templated prompt's length. */
export function handleTokenize(
  runtime: LlamaRuntime,
  request: Record<string, unknown>,
  response: ServerResponse,
): void {
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new EngineHttpError(400, 'messages must be a non-empty array', 'messages');
  }
  try {
    const count = runtime.countPromptTokens(toChatHistory(messages as ChatMessage[]));
    sendJson(response, 200, { count, max_model_len: runtime.contextSize });
  } catch (error) {
    if (error instanceof EngineInputError) throw new EngineHttpError(400, error.message, error.param);
    throw error;
  }
}
