/** OpenAI Responses API request types: the fields the gateway reads (responses-api.md §1); others are ignored. */

/** An input item; an item with a `role` and no `type` is a message (the AI SDK sends them so). */
export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A content part of a message or of a tool output (`input_text`, `input_image`, `output_text`, …). */
export interface InputPart {
  type?: string;
  text?: string;
  refusal?: string;
  image_url?: unknown;
  file_id?: unknown;
  detail?: unknown;
  [key: string]: unknown;
}

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

/** A freeform tool: its calls carry one raw string, optionally constrained by a grammar. */
export interface CustomTool {
  type: 'custom';
  name: string;
  description?: string | null;
  format?: { type: 'text' } | { type: 'grammar'; syntax: string; definition: string } | null;
}

/** A group of tools (codex's `multi_agent_v1`): its tools are offered as they are, their calls name the group. */
export interface NamespaceTool {
  type: 'namespace';
  name: string;
  description?: string | null;
  tools: ResponsesTool[];
}

export type ResponsesTool =
  | FunctionTool
  | CustomTool
  | NamespaceTool
  | { type: string; name?: string; [key: string]: unknown };

export type TextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      strict?: boolean | null;
      description?: string;
    };

export interface ResponsesRequest {
  model: string;
  input: string | InputItem[];
  instructions?: string | null;
  tools?: ResponsesTool[] | null;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  text?: { format?: TextFormat | null; verbosity?: string | null } | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  store?: boolean | null;
  stream?: boolean | null;
  metadata?: Record<string, string> | null;
  previous_response_id?: string | null;
  background?: boolean | null;
  [key: string]: unknown;
}

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

/**
 * Fastify JSON schema of the body: known fields typed, unknown ones allowed (clients add fields between
 * releases). Items, tools and formats are checked by `validateResponsesRequest`, which names the one at fault.
 */
export const responsesRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 256 },
    input: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
    instructions: nullable({ type: 'string' }),
    tools: nullable({
      type: 'array',
      items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } },
    }),
    tool_choice: {
      anyOf: [{ enum: ['none', 'auto', 'required'] }, { type: 'object', required: ['type'] }, { type: 'null' }],
    },
    parallel_tool_calls: nullable({ type: 'boolean' }),
    max_output_tokens: nullable({ type: 'integer', minimum: 1 }),
    temperature: nullable({ type: 'number', minimum: 0, maximum: 2 }),
    top_p: nullable({ type: 'number', minimum: 0, maximum: 1 }),
    text: nullable({
      type: 'object',
      properties: {
        format: nullable({
          type: 'object',
          required: ['type'],
          properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
        }),
        verbosity: nullable({ enum: ['low', 'medium', 'high'] }),
      },
    }),
    reasoning: nullable({
      type: 'object',
      properties: { effort: nullable({ type: 'string' }), summary: nullable({ type: 'string' }) },
    }),
    store: nullable({ type: 'boolean' }),
    stream: nullable({ type: 'boolean' }),
    include: nullable({ type: 'array', items: { type: 'string' } }),
    metadata: nullable({
      type: 'object',
      maxProperties: 16,
      propertyNames: { maxLength: 64 },
      additionalProperties: { type: 'string', maxLength: 512 },
    }),
    previous_response_id: nullable({ type: 'string' }),
    background: nullable({ type: 'boolean' }),
  },
} as const;
