import { HttpError } from '@atrium/core';
import type { ModelConfig } from '../config.js';
import { type ChatRequest, type ContentPart, requestedOutputTokens } from './chat.js';
import { classifyPart, mediaUrlOf, replacePartUrl } from './content-parts.js';

/** vLLM's wording, which agent clients recognise, for tools sent to a model served without tool parsing. */
export const TOOLS_DISABLED_MESSAGE =
  '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';

/** Typical UTF-8 bytes per token of text: the context check's likely prompt is the byte estimate over this. */
const BYTES_PER_TOKEN = 4;

const partParam = (m: number, p: number) => `messages[${m}].content[${p}]`;

/** Checks every content part and puts each media URL's normalised form in its place; answers whether there was one. */
function checkContent(request: ChatRequest, model: ModelConfig, allowedHosts: ReadonlySet<string>): boolean {
  let carriesUrls = false;
  const messages = request.messages;
  for (let m = 0; m < messages.length; m++) {
    const content = messages[m]?.content;
    if (!Array.isArray(content)) continue;
    for (let p = 0; p < content.length; p++) {
      const part = content[p] as ContentPart;
      const classified = classifyPart(part);
      if ('refused' in classified)
        throw new HttpError(400, 'invalid_content_part', `${partParam(m, p)}: ${classified.refused}`, partParam(m, p));
      if (!model.modalities.includes(classified.modality)) {
        throw new HttpError(
          400,
          'unsupported_modality',
          `${partParam(m, p)} is ${classified.modality} input, which model '${model.id}' does not accept (it accepts ${model.modalities.join(', ')})`,
          partParam(m, p),
        );
      }
      if (classified.url === undefined) continue;
      const media = mediaUrlOf(classified.url, allowedHosts);
      if ('refused' in media)
        throw new HttpError(400, 'media_url_not_allowed', `${partParam(m, p)}: ${media.refused}`, partParam(m, p));
      if (media.url !== classified.url) replacePartUrl(part, media.url);
      carriesUrls = true;
    }
  }
  return carriesUrls;
}

function checkTools(request: ChatRequest, model: ModelConfig): void {
  if (model.capabilities.tools) return;
  const hasTools = Array.isArray(request.tools) && request.tools.length > 0;
  const choice = request.tool_choice;
  if (hasTools && choice !== 'none') {
    throw new HttpError(
      400,
      'tools_not_supported',
      TOOLS_DISABLED_MESSAGE,
      choice === undefined ? 'tools' : 'tool_choice',
    );
  }
  if (!hasTools && choice !== undefined && choice !== null && choice !== 'none') {
    throw new HttpError(400, 'tools_not_supported', TOOLS_DISABLED_MESSAGE, 'tool_choice');
  }
}

/**
 * Request fields whose cost the gateway cannot bound: `best_of` generates answers that are never returned (and
 * current vLLM refuses it), and a request's own `chat_template` can render any prompt from the messages (vLLM
 * refuses it too unless started with --trust-request-chat-template).
 */
function checkUnboundedFields(request: ChatRequest): void {
  const bestOf = request.best_of;
  if (bestOf !== undefined && bestOf !== null && bestOf !== 1) {
    throw new HttpError(
      400,
      'invalid_request',
      '`best_of` is not supported: it generates answers that are never returned. Use `n` for several choices.',
      'best_of',
    );
  }
  if (request.chat_template !== undefined && request.chat_template !== null) {
    throw new HttpError(
      400,
      'invalid_request',
      '`chat_template` is not accepted: the model server renders prompts with its own template.',
      'chat_template',
    );
  }
}

function checkContextLength(request: ChatRequest, model: ModelConfig, promptEstimate: number): void {
  const prompt = Math.ceil(promptEstimate / BYTES_PER_TOKEN);
  const output = requestedOutputTokens(request) ?? 0;
  if (prompt + output <= model.contextLength) return;
  throw new HttpError(
    400,
    'context_length_exceeded',
    `This model's maximum context length is ${model.contextLength} tokens. However, you requested ${prompt + output} tokens (about ${prompt} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`,
    'messages',
  );
}

/**
 * Everything the gateway can refuse before a request reaches a model server. Media URLs are normalised in
 * `request` (see `mediaUrlOf`). The answer says whether it carries any: its body must then be serialised from
 * what was checked, not forwarded as the client's text, where a duplicate key could hold another URL for a
 * parser that keeps the first one. `promptEstimate` is the request's
 * upper prompt estimate (`estimateChatPromptTokens`, about its UTF-8 bytes), the one the budget reserves; the
 * context check takes the typical 4 bytes per token of it, and the model server enforces the exact limit.
 */
export function validateChatRequest(
  request: ChatRequest,
  model: ModelConfig,
  allowedHosts: ReadonlySet<string>,
  promptEstimate: number,
): boolean {
  if (request.stream_options != null && request.stream !== true) {
    throw new HttpError(
      400,
      'invalid_request',
      'Stream options can only be defined when `stream=True`.',
      'stream_options',
    );
  }
  checkUnboundedFields(request);
  checkTools(request, model);
  const carriesUrls = checkContent(request, model, allowedHosts);
  checkContextLength(request, model, promptEstimate);
  return carriesUrls;
}
