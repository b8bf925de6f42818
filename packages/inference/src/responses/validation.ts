import { HttpError } from '@atrium/core';
import type { ModelConfig } from '../config.js';
import type { InputItem, InputPart, ResponsesRequest, ResponsesTool } from './wire.js';

/** Hosted tools clients add by default (codex: `web_search`); the model servers have none, so they are left out. */
export const DROPPED_TOOL = /^(web_search|image_generation)/;
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);
const TEXT_PARTS = new Set(['input_text', 'output_text', 'text', 'summary_text', 'reasoning_text']);
/** Conversation state kept by OpenAI, which this service does not keep. */
const STATEFUL_FIELDS = ['conversation', 'prompt', 'context_management'] as const;
const NOT_STORED =
  'This service stores no responses (`store` is always false): send the whole conversation in `input`.';

const refuse = (param: string, message: string, code = 'invalid_request') => new HttpError(400, code, message, param);
const unsupported = (param: string, message: string) => refuse(param, message, 'unsupported_value');

function requireString(value: unknown, param: string): void {
  if (typeof value !== 'string') throw refuse(param, `Missing required parameter: '${param}' (a string).`);
}

function checkPart(part: InputPart, param: string, model: ModelConfig) {
  if (typeof part !== 'object' || part === null)
    throw refuse(param, `Invalid value for '${param}': expected an object.`);
  const type = part.type;
  if (typeof type === 'string' && TEXT_PARTS.has(type)) return requireString(part.text, `${param}.text`);
  if (type === 'refusal') return requireString(part.refusal, `${param}.refusal`);
  if (type === 'input_image') {
    if (part.file_id !== undefined && part.file_id !== null)
      throw unsupported(
        `${param}.file_id`,
        'Images by `file_id` need the Files API, which this service does not have: send `image_url` (a data: URL or an allowed URL).',
      );
    requireString(part.image_url, `${param}.image_url`);
    if (!model.modalities.includes('image'))
      throw refuse(
        param,
        `${param} is image input, which model '${model.id}' does not accept.`,
        'unsupported_modality',
      );
    return;
  }
  if (type === 'input_file')
    throw unsupported(`${param}.type`, "'input_file' is not supported: the model servers read text and images only.");
  throw unsupported(`${param}.type`, `Invalid content part type '${String(type)}' in '${param}'.`);
}

function checkContent(content: unknown, param: string, model: ModelConfig): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) throw refuse(param, `Invalid value for '${param}': expected a string or an array.`);
  for (const [j, part] of content.entries()) checkPart(part as InputPart, `${param}[${j}]`, model);
}

function checkItem(item: InputItem, param: string, model: ModelConfig) {
  const type = item.type ?? (item.role === undefined ? undefined : 'message');
  switch (type) {
    case 'message':
      if (!ROLES.has(String(item.role)))
        throw refuse(`${param}.role`, `Invalid value for '${param}.role': expected one of ${[...ROLES].join(', ')}.`);
      return checkContent(item.content, `${param}.content`, model);
    case 'function_call':
      requireString(item.call_id, `${param}.call_id`);
      requireString(item.name, `${param}.name`);
      return requireString(item.arguments, `${param}.arguments`);
    case 'custom_tool_call':
      requireString(item.call_id, `${param}.call_id`);
      requireString(item.name, `${param}.name`);
      return requireString(item.input, `${param}.input`);
    case 'function_call_output':
    case 'custom_tool_call_output':
      requireString(item.call_id, `${param}.call_id`);
      return checkContent(item.output, `${param}.output`, model);
    case 'reasoning':
      return;
    case 'item_reference':
      throw new HttpError(
        404,
        'not_found',
        `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. ${NOT_STORED}`,
        `${param}.id`,
      );
    default:
      throw unsupported(`${param}.type`, `Input items of type '${String(type)}' are not supported.`);
  }
}

function checkTool(tool: ResponsesTool, param: string, nested: boolean): void {
  if (tool.type === 'function' || tool.type === 'custom') {
    if (typeof tool.name !== 'string' || tool.name === '')
      throw refuse(`${param}.name`, `Missing required parameter: '${param}.name'.`);
    const parameters = (tool as { parameters?: unknown }).parameters;
    if (
      parameters !== undefined &&
      parameters !== null &&
      (typeof parameters !== 'object' || Array.isArray(parameters))
    )
      throw refuse(`${param}.parameters`, `Invalid value for '${param}.parameters': expected a JSON schema object.`);
  } else if (tool.type === 'namespace' && !nested) {
    requireString(tool.name, `${param}.name`);
    const tools = (tool as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) throw refuse(`${param}.tools`, `Missing required parameter: '${param}.tools'.`);
    for (const [j, inner] of tools.entries()) checkTool(inner as ResponsesTool, `${param}.tools[${j}]`, true);
  } else if (!DROPPED_TOOL.test(tool.type)) {
    throw unsupported(
      `${param}.type`,
      `Tools of type '${tool.type}' are not supported: this service serves function, custom and namespace tools.`,
    );
  }
}

function checkTools(request: ResponsesRequest): void {
  for (const [i, tool] of (request.tools ?? []).entries()) checkTool(tool, `tools[${i}]`, false);
  const choice = request.tool_choice as { type?: unknown; name?: unknown; tools?: unknown } | string | null | undefined;
  if (typeof choice !== 'object' || choice === null) return;
  if (choice.type === 'function' || choice.type === 'custom') requireString(choice.name, 'tool_choice.name');
  else if (choice.type === 'allowed_tools') {
    if (!Array.isArray(choice.tools))
      throw refuse('tool_choice.tools', "Missing required parameter: 'tool_choice.tools'.");
  } else throw unsupported('tool_choice.type', `tool_choice of type '${String(choice.type)}' is not supported.`);
}

function checkTextFormat(request: ResponsesRequest): void {
  const format = request.text?.format;
  if (format?.type !== 'json_schema') return;
  requireString(format.name, 'text.format.name');
  if (typeof format.schema !== 'object' || format.schema === null)
    throw refuse('text.format.schema', "Missing required parameter: 'text.format.schema' (a JSON schema object).");
}

/**
 * What `/v1/responses` refuses before translation, with OpenAI's parameter paths: stored state
 * (`previous_response_id`, `item_reference`, background mode, conversations, stored prompts), hosted tools other
 * than those left out (`DROPPED_TOOL`), files, and images for a model that cannot see them.
 */
export function validateResponsesRequest(request: ResponsesRequest, model: ModelConfig): void {
  if (typeof request.previous_response_id === 'string')
    throw refuse(
      'previous_response_id',
      `Previous response with id '${request.previous_response_id}' not found. ${NOT_STORED}`,
      'previous_response_not_found',
    );
  if (request.background === true)
    throw refuse(
      'background',
      'Background mode is not supported: it needs stored responses, and this service stores none. Send the request without `background`.',
      'unsupported_parameter',
    );
  for (const field of STATEFUL_FIELDS)
    if (request[field] !== undefined && request[field] !== null)
      throw refuse(field, `Unsupported parameter: '${field}'. ${NOT_STORED}`, 'unsupported_parameter');
  checkTools(request);
  checkTextFormat(request);
  if (typeof request.input === 'string') return;
  if (request.input.length === 0 && !request.instructions)
    throw refuse('input', "Invalid value for 'input': give at least one item, or `instructions`.");
  for (const [i, item] of request.input.entries()) checkItem(item, `input[${i}]`, model);
}
