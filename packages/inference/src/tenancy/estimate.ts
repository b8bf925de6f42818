import type { ChatMessage, ChatRequest } from '../wire/chat.js';
import { requestedOutputTokens } from '../wire/chat.js';
import { type EmbeddingInput, embeddingItems } from '../wire/embeddings.js';

/** Chat-template tokens around each message (role markers, separators), generously. */
const PER_MESSAGE = 8;
/** An image, audio or video part: vision encoders produce up to a couple of thousand tokens. */
const PER_MEDIA_PART = 2048;

function messageBytes(message: ChatMessage): number {
  const content = message.content;
  if (typeof content === 'string') return Buffer.byteLength(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content)
    total += typeof part.text === 'string' ? Buffer.byteLength(part.text) : part.type === 'text' ? 0 : PER_MEDIA_PART;
  return total;
}

/**
 * An upper estimate of a chat request's prompt tokens without a tokenizer: byte-level BPE tokenizers never
 * produce more tokens than UTF-8 bytes, plus the template's tokens per message and tool definitions.
 */
export function estimateChatPromptTokens(request: ChatRequest): number {
  let total = PER_MESSAGE;
  for (const message of request.messages) total += PER_MESSAGE + messageBytes(message);
  if (Array.isArray(request.tools) && request.tools.length > 0)
    total += Buffer.byteLength(JSON.stringify(request.tools));
  return total;
}

/** The output a chat request may produce: its `max_tokens`, else whatever the context leaves after the prompt. */
export function effectiveMaxOutput(request: ChatRequest, promptEstimate: number, contextLength: number): number {
  const room = Math.max(0, contextLength - promptEstimate);
  const requested = requestedOutputTokens(request);
  return requested === undefined ? room : Math.min(requested, room);
}

/** Embedding inputs: token arrays count exactly, texts by their UTF-8 bytes. */
export function estimateEmbeddingTokens(input: EmbeddingInput): number {
  let total = 0;
  for (const item of embeddingItems(input))
    total += typeof item === 'string' ? Buffer.byteLength(item) + 2 : item.length;
  return total;
}
