import { HttpError } from '@atrium/core';
import type { ModelConfig } from '../config.js';
import { mediaUrlOf } from '../wire/content-parts.js';
import type { CountTokensRequest, ImageSource } from './wire.js';

/** Anthropic's own limit on one image (decoded bytes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const USER_BLOCKS = new Set(['text', 'image', 'document', 'search_result', 'tool_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'tool_use', 'thinking', 'redacted_thinking']);
const TOOL_RESULT_BLOCKS = new Set(['text', 'image', 'document', 'search_result', 'tool_reference', 'browser_state']);
const DOCUMENT_CONTENT_BLOCKS = new Set(['text', 'image']);
const SEARCH_RESULT_BLOCKS = new Set(['text']);
const SYSTEM_BLOCKS = new Set(['text']);
/** Anthropic's server-side tool search; the gateway serves the client-side kind (a tool whose results hold `tool_reference`s). */
const SERVER_TOOL_SEARCH = /^tool_search_tool_(regex|bm25)/;
const AUDIO_OR_VIDEO = /audio|video/i;

export interface ValidationContext {
  model: ModelConfig;
  allowedMediaHosts: ReadonlySet<string>;
}

/** What checking a request's blocks needs besides the context: the tools a `tool_reference` may name. */
interface Checking extends ValidationContext {
  toolNames: ReadonlySet<string>;
}

type Block = Record<string, unknown> & { type: string };

const refuse = (param: string, message: string, code = 'invalid_request') =>
  new HttpError(400, code, `${param}: ${message}`, param);

function requireString(block: Block, field: string, param: string): void {
  if (typeof block[field] !== 'string') throw refuse(`${param}.${field}`, 'Field required (a string)');
}

function checkImage(block: Block, param: string, context: ValidationContext) {
  const { model, allowedMediaHosts } = context;
  if (!model.modalities.includes('image')) {
    throw refuse(param, `model '${model.id}' does not accept image input`, 'unsupported_modality');
  }
  const source = block.source as Partial<ImageSource> | undefined;
  const at = `${param}.source`;
  if (source?.type === 'base64') {
    if (typeof source.data !== 'string') throw refuse(`${at}.data`, 'Field required (a base64 string)');
    if (!IMAGE_MEDIA_TYPES.has(String(source.media_type))) {
      throw refuse(`${at}.media_type`, `must be one of ${[...IMAGE_MEDIA_TYPES].join(', ')}`);
    }
    const bytes = Math.floor((source.data.length * 3) / 4);
    if (bytes > MAX_IMAGE_BYTES) {
      throw refuse(`${at}.base64`, `image exceeds 5 MB maximum: ${bytes} bytes > ${MAX_IMAGE_BYTES} bytes`);
    }
  } else if (source?.type === 'url') {
    if (typeof source.url !== 'string') throw refuse(`${at}.url`, 'Field required (a string)');
    const media = mediaUrlOf(source.url, allowedMediaHosts);
    if ('refused' in media) throw refuse(`${at}.url`, media.refused, 'media_url_not_allowed');
    source.url = media.url;
  } else {
    throw refuse(`${at}.type`, "image sources are 'base64' or 'url' (file sources are not supported)");
  }
}

/** Documents given as text are read as text; PDFs, URLs and files would need a reader the model servers lack. */
function checkDocument(block: Block, param: string, context: Checking) {
  for (const field of ['title', 'context'] as const) {
    const value = block[field];
    if (value !== undefined && value !== null && typeof value !== 'string')
      throw refuse(`${param}.${field}`, 'must be a string');
  }
  const source = block.source as Record<string, unknown> | undefined;
  const at = `${param}.source`;
  if (source?.type === 'text') {
    if (source.media_type !== 'text/plain') throw refuse(`${at}.media_type`, "must be 'text/plain'");
    if (typeof source.data !== 'string') throw refuse(`${at}.data`, 'Field required (a string)');
  } else if (source?.type === 'content') {
    const content = source.content;
    if (typeof content === 'string') return;
    if (!Array.isArray(content)) throw refuse(`${at}.content`, 'must be a string or an array of blocks');
    checkBlocks(content, DOCUMENT_CONTENT_BLOCKS, `${at}.content`, context);
  } else if (source?.type === 'base64' || source?.type === 'url' || source?.type === 'file') {
    throw refuse(
      at,
      `'${String(source.type)}' document sources (PDF files) are not supported: the model servers read text, so send the document's text as a 'text' or 'content' source`,
      'unsupported_modality',
    );
  } else {
    throw refuse(`${at}.type`, "document sources are 'text' or 'content'");
  }
}

function checkBlock(block: Block, allowed: ReadonlySet<string>, param: string, context: Checking) {
  const type = block.type;
  if (AUDIO_OR_VIDEO.test(type)) {
    throw refuse(
      param,
      `'${type}' blocks are not supported on /v1/messages: audio and video input is accepted on /v1/chat/completions only`,
      'unsupported_modality',
    );
  }
  if (!allowed.has(type)) {
    throw refuse(`${param}.type`, `'${type}' is not allowed here (expected one of ${[...allowed].join(', ')})`);
  }
  switch (type) {
    case 'text':
      return requireString(block, 'text', param);
    case 'image':
      return checkImage(block, param, context);
    case 'document':
      return checkDocument(block, param, context);
    case 'thinking':
      return requireString(block, 'thinking', param);
    case 'redacted_thinking':
      return requireString(block, 'data', param);
    case 'tool_use':
      requireString(block, 'id', param);
      requireString(block, 'name', param);
      if (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input)) {
        throw refuse(`${param}.input`, 'Field required (an object)');
      }
      return;
    case 'search_result':
      requireString(block, 'source', param);
      requireString(block, 'title', param);
      if (!Array.isArray(block.content)) throw refuse(`${param}.content`, 'Field required (an array of text blocks)');
      return checkBlocks(block.content, SEARCH_RESULT_BLOCKS, `${param}.content`, context);
    case 'tool_reference':
      requireString(block, 'tool_name', param);
      if (!context.toolNames.has(block.tool_name as string)) {
        throw refuse(
          `${param}.tool_name`,
          `tool_reference names '${String(block.tool_name)}', which is not in \`tools\``,
          'tool_reference_unresolved',
        );
      }
      return;
    case 'browser_state':
      if (!Array.isArray(block.tabs)) throw refuse(`${param}.tabs`, 'Field required (an array)');
      return;
    case 'tool_result': {
      requireString(block, 'tool_use_id', param);
      const content = block.content;
      if (content === undefined || typeof content === 'string') return;
      if (!Array.isArray(content)) throw refuse(`${param}.content`, 'must be a string or an array of blocks');
      return checkBlocks(content, TOOL_RESULT_BLOCKS, `${param}.content`, context);
    }
  }
}

function checkBlocks(blocks: unknown[], allowed: ReadonlySet<string>, param: string, context: Checking) {
  for (const [i, block] of blocks.entries()) {
    const at = `${param}.${i}`;
    if (typeof block !== 'object' || block === null || typeof (block as Block).type !== 'string') {
      throw refuse(at, 'a content block needs a type');
    }
    checkBlock(block as Block, allowed, at, context);
  }
}

function checkTools(request: CountTokensRequest): void {
  for (const [i, tool] of (request.tools ?? []).entries()) {
    const param = `tools.${i}`;
    const type = (tool as { type?: unknown }).type;
    if (typeof type === 'string' && SERVER_TOOL_SEARCH.test(type)) {
      throw refuse(
        `${param}.type`,
        `server tool '${type}' is not supported: tool search runs on the client here (a custom tool whose tool_result holds tool_reference blocks, as Claude Code's ToolSearch does), with the other tools marked defer_loading`,
      );
    }
    if (type !== undefined && type !== null && type !== 'custom') {
      throw refuse(`${param}.type`, `server tool '${String(type)}' is not supported; only custom tools are`);
    }
    if (typeof tool.name !== 'string' || tool.name.length === 0) throw refuse(`${param}.name`, 'Field required');
    if (typeof tool.input_schema !== 'object' || tool.input_schema === null) {
      throw refuse(`${param}.input_schema`, 'Field required (a JSON schema object)');
    }
    if (tool.defer_loading !== undefined && typeof tool.defer_loading !== 'boolean') {
      throw refuse(`${param}.defer_loading`, 'must be a boolean');
    }
  }
  const choice = request.tool_choice;
  if (choice?.type === 'tool' && typeof choice.name !== 'string') throw refuse('tool_choice.name', 'Field required');
}

/**
 * What the Messages API refuses before translation, with Anthropic-style parameter paths: content blocks of
 * the wrong type for their role, audio and video (accepted on /v1/chat/completions only), images the model
 * cannot see or that exceed 5 MB, media URLs off the allowlist, PDF documents, server tools, `tool_reference`s to
 * tools the request does not define. Image URLs are replaced by their normalised form (see `mediaUrlOf`),
 * which is what the model server gets.
 */
export function validateMessages(request: CountTokensRequest, context: ValidationContext): void {
  const checking = { ...context, toolNames: new Set((request.tools ?? []).map((tool) => tool.name)) };
  if (Array.isArray(request.system)) checkBlocks(request.system, SYSTEM_BLOCKS, 'system', checking);
  for (const [m, message] of request.messages.entries()) {
    if (typeof message.content === 'string') continue;
    const allowed =
      message.role === 'assistant' ? ASSISTANT_BLOCKS : message.role === 'system' ? SYSTEM_BLOCKS : USER_BLOCKS;
    checkBlocks(message.content, allowed, `messages.${m}.content`, checking);
  }
  checkTools(request);
}
