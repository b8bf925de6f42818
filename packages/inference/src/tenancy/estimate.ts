import type { ChatMessage, ChatRequest, ContentPart } from '../wire/chat.js';
import { classifyPart } from '../wire/content-parts.js';
import { type EmbeddingInput, embeddingItems } from '../wire/embeddings.js';

/** Chat-template tokens around each message (role markers, separators), generously. */
const PER_MESSAGE = 8;
/** An image, audio or video part: vision encoders produce up to a couple of thousand tokens. */
export const PER_MEDIA_PART = 2048;
/** A chat template's instructions around the tool definitions (Qwen3's are about 400 bytes). */
const TOOL_INSTRUCTIONS = 512;
/** Request fields besides messages and tools that can reach the prompt or its decoding, counted as their JSON. */
const RENDERED_FIELDS = ['tool_choice', 'response_format', 'documents', 'chat_template_kwargs'] as const;
/** Of these, the ones a model server's `/tokenize` is not given. */
const UNTOKENIZED_FIELDS = ['tool_choice', 'response_format', 'documents'] as const;

const jsonBytes = (value: unknown): number =>
  value === undefined || value === null ? 0 : Buffer.byteLength(JSON.stringify(value));

const valueBytes = (value: unknown): number =>
  typeof value === 'string' ? Buffer.byteLength(value) : jsonBytes(value);

function partTokens(part: ContentPart): number {
  const classified = classifyPart(part);
  if ('modality' in classified && classified.modality !== 'text') return PER_MEDIA_PART;
  let total = 0;
  for (const key in part) total += valueBytes(part[key]);
  return total;
}

/** Every field a template may render: text as its bytes, media parts at their allowance, the rest as JSON. */
function messageTokens(message: ChatMessage): number {
  let total = PER_MESSAGE;
  for (const key in message) {
    const value = message[key];
    if (key === 'content' && Array.isArray(value)) for (const part of value as ContentPart[]) total += partTokens(part);
    else total += valueBytes(value);
  }
  return total;
}

/**
 * An upper estimate of a chat request's prompt tokens without a tokenizer: byte-level BPE tokenizers never
 * produce more tokens than UTF-8 bytes, so every string a template can render counts its bytes (structured
 * fields their JSON), plus the template's tokens per message and around tools, and each media part its allowance.
 */
export function estimateChatPromptTokens(request: ChatRequest): number {
  let total = PER_MESSAGE;
  for (const message of request.messages) total += messageTokens(message);
  if (Array.isArray(request.tools) && request.tools.length > 0) total += TOOL_INSTRUCTIONS + jsonBytes(request.tools);
  for (const field of RENDERED_FIELDS) total += jsonBytes(request[field]);
  return total;
}

/** The prompt a chat request reserves: its estimate, at most the context length (the model server refuses longer). */
export const reservedPromptTokens = (promptEstimate: number, contextLength: number): number =>
  Math.min(promptEstimate, contextLength);

/**
 * What a tokenizer's count of a chat request's messages and tools leaves out, as an upper bound: each media
 * part's allowance (a text tokenizer may not expand it) and the JSON of the fields `/tokenize` is not given.
 */
export function beyondTokenizer(request: ChatRequest): number {
  let total = mediaParts(request) * PER_MEDIA_PART;
  for (const field of UNTOKENIZED_FIELDS) total += jsonBytes(request[field]);
  return total;
}

/** The image, audio and video parts of a chat request's messages. */
function mediaParts(request: ChatRequest): number {
  let count = 0;
  for (const message of request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as ContentPart[]) {
      const classified = classifyPart(part);
      if ('modality' in classified && classified.modality !== 'text') count++;
    }
  }
  return count;
}

/** Embedding inputs: token arrays count exactly, texts by their UTF-8 bytes; each at most the context length. */
export function estimateEmbeddingTokens(input: EmbeddingInput, contextLength: number): number {
  let total = 0;
  for (const item of embeddingItems(input))
    total += Math.min(typeof item === 'string' ? Buffer.byteLength(item) + 2 : item.length, contextLength);
  return total;
}
