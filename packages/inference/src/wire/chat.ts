/** The parts of an OpenAI chat request the gateway reads; everything else passes through untouched. */
export interface ChatMessage {
  role: string;
  content?: string | ContentPart[] | null;
  reasoning_content?: unknown;
  reasoning?: unknown;
  [key: string]: unknown;
}

export interface ContentPart {
  type?: string;
  text?: string;
  [key: string]: unknown;
}

export interface StreamOptions {
  include_usage?: boolean;
  continuous_usage_stats?: boolean;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: StreamOptions | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  n?: number | null;
  tools?: unknown[] | null;
  tool_choice?: unknown;
  [key: string]: unknown;
}

/** The output allowance a request asks for (`max_completion_tokens` wins, as in vLLM). */
export function requestedOutputTokens(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/** The choices a request asks for (`n`), each of which may use the whole output allowance. */
export function requestedChoices(request: ChatRequest): number {
  return request.n ?? 1;
}

/** Fastify JSON schema of the chat body: typed known fields, vLLM extras allowed through. */
export const chatRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 256 },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { type: 'string', minLength: 1 },
          content: {
            anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: { type: 'object' } }],
          },
        },
      },
    },
    stream: { type: 'boolean' },
    stream_options: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          properties: { include_usage: { type: 'boolean' }, continuous_usage_stats: { type: 'boolean' } },
        },
      ],
    },
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    top_p: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    max_tokens: { type: ['integer', 'null'], minimum: 1 },
    max_completion_tokens: { type: ['integer', 'null'], minimum: 1 },
    n: { type: ['integer', 'null'], minimum: 1, maximum: 128 },
    seed: { type: ['integer', 'null'] },
    stop: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', maxItems: 16, items: { type: 'string' } }] },
    tools: { type: ['array', 'null'], items: { type: 'object' } },
    tool_choice: { anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'null' }] },
    response_format: { type: ['object', 'null'] },
  },
} as const;
