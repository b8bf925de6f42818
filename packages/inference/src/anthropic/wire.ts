/** Anthropic Messages API request types (the subset the gateway translates; see llm-gateway.md §2.2). */

export interface TextBlock {
  type: 'text';
  text: string;
}

export type ImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface ImageBlock {
  type: 'image';
  source: ImageSource;
}

/** A document the client sends as text: plain text, or text and image blocks (`content`). */
export type DocumentSource =
  | { type: 'text'; media_type: 'text/plain'; data: string }
  | { type: 'content'; content: string | (TextBlock | ImageBlock)[] };

export interface DocumentBlock {
  type: 'document';
  source: DocumentSource;
  title?: string | null;
  context?: string | null;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A search result the client's own search tool found: its text blocks, with where they come from. */
export interface SearchResultBlock {
  type: 'search_result';
  source: string;
  title: string;
  content: TextBlock[];
}

/** Tool search: names a deferred tool (`defer_loading`), which becomes callable from then on. */
export interface ToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
}

/** What a browser tool reports after a call: the open tabs and what changed. */
export interface BrowserStateBlock {
  type: 'browser_state';
  tabs: unknown[];
  state_changes?: unknown[] | null;
}

/** The blocks the Messages API allows inside a `tool_result`. */
export type ToolResultContent =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | SearchResultBlock
  | ToolReferenceBlock
  | BrowserStateBlock;

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | ToolResultContent[];
  is_error?: boolean;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | SearchResultBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

export interface MessageParam {
  /** `ctx` and `msg` are Claude Code's newer spellings of `user`; `system` adds to the system prompt. */
  role: 'user' | 'assistant' | 'system' | 'ctx' | 'msg';
  content: string | ContentBlock[];
}

export interface CustomTool {
  type?: 'custom';
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  /** Tool search: left out of the prompt until a `tool_reference` in a tool result names it. */
  defer_loading?: boolean;
}

export type ToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type ThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlock[];
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  metadata?: { user_id?: string | null };
  tools?: CustomTool[];
  tool_choice?: ToolChoice;
  thinking?: ThinkingConfig;
  output_config?: { effort?: string; format?: { type: 'json_schema'; schema: Record<string, unknown> } };
}

/** `count_tokens` takes the same prompt fields, without `max_tokens` and the sampling fields. */
export type CountTokensRequest = Pick<
  MessagesRequest,
  'model' | 'messages' | 'system' | 'tools' | 'tool_choice' | 'thinking'
>;

const textBlocks = { type: 'array', items: { type: 'object', required: ['type', 'text'] } } as const;

/** Fields typed here; blocks are checked by `validateMessages`, which can name the block at fault. */
const promptProperties = {
  model: { type: 'string', minLength: 1, maxLength: 256 },
  messages: {
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['role', 'content'],
      additionalProperties: false,
      properties: {
        role: { enum: ['user', 'assistant', 'system', 'ctx', 'msg'] },
        content: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', required: ['type'] } }] },
      },
    },
  },
  system: { anyOf: [{ type: 'string' }, textBlocks] },
  tools: { type: 'array', items: { type: 'object' } },
  tool_choice: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { enum: ['auto', 'any', 'tool', 'none'] },
      name: { type: 'string', minLength: 1 },
      disable_parallel_tool_use: { type: 'boolean' },
    },
  },
  thinking: {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: ['enabled', 'disabled', 'adaptive'] }, budget_tokens: { type: 'integer', minimum: 1 } },
  },
  output_config: {
    type: 'object',
    additionalProperties: false,
    properties: {
      effort: { enum: ['low', 'medium', 'high', 'xhigh', 'max'] },
      format: { type: 'object', required: ['type', 'schema'], properties: { type: { const: 'json_schema' } } },
    },
  },
  /** Accepted and ignored: prompt caching is automatic upstream, and there is one service tier and region. */
  cache_control: { type: 'object' },
  service_tier: { type: 'string' },
  inference_geo: { type: 'string' },
  context_management: { type: 'object' },
} as const;

export const countTokensRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  additionalProperties: false,
  properties: promptProperties,
} as const;

export const messagesRequestSchema = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  additionalProperties: false,
  properties: {
    ...promptProperties,
    max_tokens: { type: 'integer', minimum: 1 },
    stop_sequences: { type: 'array', maxItems: 16, items: { type: 'string', minLength: 1 } },
    stream: { type: 'boolean' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    top_k: { type: 'integer', minimum: 0 },
    metadata: {
      type: 'object',
      additionalProperties: false,
      properties: { user_id: { type: ['string', 'null'], maxLength: 256 } },
    },
  },
} as const;
