import type { ServerResponse } from 'node:http';
import { type EmbeddingInput, embeddingItems, encodeBase64Embedding } from '../wire/embeddings.js';
import { EngineHttpError, sendJson } from './http-io.js';
import type { LlamaRuntime } from './runtime.js';

function validItems(input: unknown, vocabularySize: number): Array<string | number[]> {
  const valid =
    (typeof input === 'string' && input.length > 0) ||
    (Array.isArray(input) && input.length > 0 && input.length <= 2048);
  if (!valid)
    throw new EngineHttpError(400, 'input must be a non-empty string, array of strings or token array(s)', 'input');
  const items = embeddingItems(input as EmbeddingInput);
  for (const item of items) {
    const ok =
      typeof item === 'string'
        ? item.length > 0
        : Array.isArray(item) &&
          item.length > 0 &&
          item.every((t) => Number.isInteger(t) && t >= 0 && t < vocabularySize);
    if (!ok)
      throw new EngineHttpError(
        400,
        `input items must be non-empty strings or token ids below ${vocabularySize}`,
        'input',
      );
  }
  return items;
}

/** `POST /v1/embeddings`: float arrays or base64 little-endian float32, with usage, in vLLM's shape. */
export async function handleEmbeddings(
  runtime: LlamaRuntime,
  modelName: string,
  request: Record<string, unknown>,
  response: ServerResponse,
): Promise<void> {
  if (request.model !== undefined && request.model !== modelName) {
    throw new EngineHttpError(404, `The model \`${String(request.model)}\` does not exist.`, 'model');
  }
  const format = request.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    throw new EngineHttpError(400, 'encoding_format must be float or base64', 'encoding_format');
  const items = validItems(request.input, runtime.vocabularySize);
  const { vectors, promptTokens } = await runtime.embed(items);
  const dimensions = request.dimensions;
  if (dimensions !== undefined && dimensions !== vectors[0]?.length) {
    throw new EngineHttpError(
      400,
      'Model does not support matryoshka representation, changing output dimensions will lead to poor results.',
      'dimensions',
    );
  }
  sendJson(response, 200, {
    id: `embd-${Date.now().toString(36)}`,
    object: 'list',
    created: Math.floor(Date.now() / 1000),
    model: modelName,
    data: vectors.map((vector, index) => ({
      index,
      object: 'embedding',
      embedding: format === 'base64' ? encodeBase64Embedding(vector) : vector,
    })),
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      completion_tokens: 0,
      prompt_tokens_details: null,
    },
  });
}
