import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ChatRequest } from '../wire/chat.js';
import { handleChat } from './chat-handler.js';
import { handleEmbeddings } from './embeddings-handler.js';
import { EngineHttpError, readJson, sendError, sendJson } from './http-io.js';
import type { LlamaRuntime } from './runtime.js';
import { handleTokenize } from './tokenize-handler.js';

/** Ends a stream that already sent its 200 with an in-band error, as vLLM does. */
function endStreamWithError(response: ServerResponse, message: string): void {
  const error = { error: { message, type: 'InternalServerError', param: null, code: 500 } };
  response.end(`data: ${JSON.stringify(error)}\n\ndata: [DONE]\n\n`);
}

async function route(
  runtime: LlamaRuntime,
  modelName: string,
  request: IncomingMessage,
  response: ServerResponse,
  signal: AbortSignal,
) {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'GET' && (path === '/health' || path === '/healthz')) return sendJson(response, 200, {});
  if (request.method === 'GET' && path === '/v1/models') {
    const model = {
      id: modelName,
      object: 'model',
      created: Math.floor(Date.now() / 1000),
      owned_by: 'atrium-engine',
      max_model_len: runtime.contextSize,
    };
    return sendJson(response, 200, { object: 'list', data: [model] });
  }
  if (request.method === 'POST' && path === '/v1/chat/completions') {
    return handleChat(runtime, modelName, (await readJson(request)) as ChatRequest, response, signal);
  }
  if (request.method === 'POST' && path === '/v1/embeddings') {
    return handleEmbeddings(runtime, modelName, await readJson(request), response);
  }
  if (request.method === 'POST' && path === '/tokenize')
    return handleTokenize(runtime, await readJson(request), response);
  throw new EngineHttpError(404, `no route for ${request.method} ${path}`);
}

/**
 * The engine's OpenAI-compatible HTTP server (the subset of vLLM's API the gateway uses: `/health`,
 * `/v1/models`, `/v1/chat/completions`, `/v1/embeddings`, `/tokenize`). Generation stops when the client
 * disconnects. It never logs requests: prompts stay in memory.
 */
export function createEngineServer(runtime: LlamaRuntime, modelName: string): Server {
  return createServer((request, response) => {
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    route(runtime, modelName, request, response, abort.signal).catch((error: unknown) => {
      if (response.headersSent) {
        if (!response.writableEnded) endStreamWithError(response, 'generation failed');
        return;
      }
      sendError(response, error instanceof EngineHttpError ? error : new EngineHttpError(500, 'generation failed'));
    });
  });
}
