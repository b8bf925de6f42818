export type EmbeddingInput = string | string[] | number[] | number[][];

export interface EmbeddingRequest {
  model: string;
  input: EmbeddingInput;
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  [key: string]: unknown;
}

const MAX_ITEMS = 2048;

const tokenArray = { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0 } } as const;

/** Fastify JSON schema of the embeddings body (OpenAI's input forms; vLLM extras pass through). */
export const embeddingRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 256 },
    input: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: { type: 'string', minLength: 1 } },
        tokenArray,
        { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: tokenArray },
      ],
    },
    encoding_format: { type: 'string', enum: ['float', 'base64'] },
    dimensions: { type: 'integer', minimum: 1 },
    user: { type: 'string' },
  },
} as const;

/** The input as a list of items to embed: texts or token arrays. */
export function embeddingItems(input: EmbeddingInput): Array<string | number[]> {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [input as number[]];
  return input as Array<string | number[]>;
}

/** Little-endian float32 bytes in base64, what the OpenAI SDKs decode. */
export function encodeBase64Embedding(vector: ArrayLike<number>): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

export function decodeBase64Embedding(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4)));
}

interface UpstreamEmbedding {
  index?: number;
  embedding?: unknown;
}

/**
 * The OpenAI response shape for the client: the public model id, `{prompt_tokens, total_tokens}` usage, and
 * each vector in the encoding the client asked for (converted if the upstream answered in the other one).
 */
export function toClientEmbeddings(raw: unknown, model: string, format: 'float' | 'base64') {
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as {
    data?: UpstreamEmbedding[];
    usage?: { prompt_tokens?: number };
  };
  const data = (Array.isArray(body.data) ? body.data : []).map((item, i) => {
    const vector = item.embedding;
    const embedding =
      format === 'base64'
        ? typeof vector === 'string'
          ? vector
          : encodeBase64Embedding(vector as number[])
        : typeof vector === 'string'
          ? decodeBase64Embedding(vector)
          : vector;
    return { object: 'embedding', index: item.index ?? i, embedding };
  });
  const promptTokens = body.usage?.prompt_tokens ?? 0;
  return { object: 'list', data, model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
}
