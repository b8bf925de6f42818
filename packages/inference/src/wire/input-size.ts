import { HttpError } from '@atrium/core';
import { type EmbeddingInput, embeddingItems } from './embeddings.js';

/**
 * Text over this many UTF-8 bytes per token of a model's context cannot fit in it (tokens of real vocabularies
 * are far shorter), so it is refused before a tokenizer spends time on it.
 */
export const MAX_BYTES_PER_TOKEN = 8;

const tooLong = (param: string, size: string, limit: string) =>
  new HttpError(400, 'context_length_exceeded', `${param} is too long: ${size}, more than ${limit}.`, param);

/** Refuses a prompt whose size (an upper estimate of its tokens, as bytes of text) cannot fit the context. */
export function checkPromptFits(bytes: number, contextLength: number, param: string): void {
  const limit = contextLength * MAX_BYTES_PER_TOKEN;
  if (bytes > limit) {
    throw tooLong(
      param,
      `about ${bytes} bytes`,
      `the ${limit} bytes (${MAX_BYTES_PER_TOKEN} per token) that could fit the model's ${contextLength}-token context`,
    );
  }
}

/** Each embedding input must fit the context: token arrays by their length, texts by the byte rule above. */
export function checkEmbeddingInputFits(input: EmbeddingInput, contextLength: number): void {
  const items = embeddingItems(input);
  for (const [i, item] of items.entries()) {
    const param = typeof input === 'string' || items.length === 1 ? 'input' : `input[${i}]`;
    if (typeof item === 'string') checkPromptFits(Buffer.byteLength(item), contextLength, param);
    else if (item.length > contextLength)
      throw tooLong(param, `${item.length} tokens`, `the model's context length of ${contextLength} tokens`);
  }
}
