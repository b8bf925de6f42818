import type { ChatMessage, ChatRequest, ContentPart } from '../wire/chat.js';
import { DROPPED_TOOL } from './validation.js';
import type { CustomTool, InputItem, InputPart, NamespaceTool, ResponsesRequest, ResponsesTool } from './wire.js';

/** The one string parameter a custom (freeform) tool's input travels in, as a chat function's argument. */
export const CUSTOM_INPUT = 'input';

/** An assistant turn being assembled from contiguous assistant-side items (responses-api.md §1.3). */
interface AssistantTurn {
  text: string;
  reasoning: string;
  toolCalls: unknown[];
}

const textOf = (part: InputPart): string => part.text ?? part.refusal ?? '';

function partOf(part: InputPart): ContentPart {
  if (part.type !== 'input_image') return { type: 'text', text: textOf(part) };
  const imageUrl: Record<string, unknown> = { url: part.image_url };
  if (typeof part.detail === 'string') imageUrl.detail = part.detail;
  return { type: 'image_url', image_url: imageUrl };
}

/** A message's content: a single text stays a string (every backend takes it), anything else chat parts. */
function contentOf(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  const parts = (content as InputPart[]).map(partOf);
  if (parts.length === 1 && parts[0]?.type === 'text') return parts[0].text as string;
  return parts;
}

/** The plain text of a message or of reasoning (its parts' texts, joined). */
function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as InputPart[]).map(textOf).join('');
}

/** Reasoning replayed by a client: its raw text, else its summary. */
function reasoningText(item: InputItem): string {
  const content = plainText(item.content);
  return content !== '' ? content : plainText(item.summary);
}

/** Chat messages from the instructions and input (responses-api.md §1.3). */
function chatMessages(request: ResponsesRequest): ChatMessage[] {
  const system = typeof request.instructions === 'string' && request.instructions !== '' ? [request.instructions] : [];
  const messages: ChatMessage[] = [];
  const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  let turn: AssistantTurn | undefined;
  /** Images from tool outputs, which chat tool messages cannot hold: one user message after the outputs. */
  let toolImages: ContentPart[] = [];
  const closeTurn = () => {
    if (!turn) return;
    const { text, reasoning, toolCalls } = turn;
    const message: ChatMessage = { role: 'assistant', content: toolCalls.length > 0 && text === '' ? null : text };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    if (reasoning !== '') message.reasoning = reasoning;
    messages.push(message);
    turn = undefined;
  };
  const closeToolOutputs = () => {
    if (toolImages.length > 0) messages.push({ role: 'user', content: toolImages });
    toolImages = [];
  };
  const assistant = () => {
    closeToolOutputs();
    turn ??= { text: '', reasoning: '', toolCalls: [] };
    return turn;
  };
  for (const item of items as InputItem[]) {
    const type = item.type ?? 'message';
    if (type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      const text = plainText(item.content);
      if (text !== '') system.push(text);
    } else if (type === 'message' && item.role === 'assistant') assistant().text += plainText(item.content);
    else if (type === 'reasoning') {
      const reasoning = reasoningText(item);
      if (reasoning !== '') assistant().reasoning += reasoning;
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const args = type === 'function_call' ? item.arguments : JSON.stringify({ [CUSTOM_INPUT]: item.input });
      assistant().toolCalls.push({
        id: item.call_id,
        type: 'function',
        function: { name: item.name, arguments: args },
      });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      closeTurn();
      const output = typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : item.output;
      const parts = (output as InputPart[]).map(partOf);
      const texts = parts.filter((part) => part.type === 'text').map((part) => part.text);
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: texts.join('\n') });
      toolImages.push(...parts.filter((part) => part.type !== 'text'));
    } else {
      closeTurn();
      closeToolOutputs();
      messages.push({ role: 'user', content: contentOf(item.content) });
    }
  }
  closeTurn();
  closeToolOutputs();
  return system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }, ...messages] : messages;
}

/** A custom tool as a chat function taking its raw input as one string; a grammar, if any, is described. */
function customFunction(tool: CustomTool): Record<string, unknown> {
  const format = tool.format;
  const grammar =
    format?.type === 'grammar'
      ? `\n\nThe ${CUSTOM_INPUT} must follow this ${format.syntax} grammar:\n${format.definition}`
      : '';
  return {
    name: tool.name,
    description: `${tool.description ?? ''}${grammar}`,
    parameters: {
      type: 'object',
      properties: { [CUSTOM_INPUT]: { type: 'string', description: `The raw ${CUSTOM_INPUT} of ${tool.name}` } },
      required: [CUSTOM_INPUT],
    },
  };
}

function chatTool(tool: ResponsesTool): unknown {
  if (tool.type === 'custom') return { type: 'function', function: customFunction(tool as CustomTool) };
  const { name, description, parameters } = tool as { name: string; description?: unknown; parameters?: unknown };
  const fn: Record<string, unknown> = { name, parameters: parameters ?? { type: 'object', properties: {} } };
  if (typeof description === 'string') fn.description = description;
  return { type: 'function', function: fn };
}

/** A function or custom tool offered upstream, with the namespace it was given in, if any. */
export interface OfferedTool {
  tool: ResponsesTool;
  namespace?: string;
}

/** The request's function and custom tools, namespaces flattened (their tools keep their own names), hosted tools left out. */
export function offeredTools(request: ResponsesRequest): OfferedTool[] {
  const offered: OfferedTool[] = [];
  for (const tool of request.tools ?? []) {
    if (tool.type === 'namespace') {
      const { name, tools } = tool as NamespaceTool;
      for (const inner of tools) if (!DROPPED_TOOL.test(inner.type)) offered.push({ tool: inner, namespace: name });
    } else if (!DROPPED_TOOL.test(tool.type)) offered.push({ tool });
  }
  return offered;
}

/** The tools that go upstream (`allowed_tools` applied) and the chat `tool_choice`. */
function toolsOf(request: ResponsesRequest): { tools: ResponsesTool[]; choice: unknown } {
  let tools = offeredTools(request).map((offered) => offered.tool);
  const choice = request.tool_choice as
    | { type?: string; name?: string; mode?: string; tools?: { name?: string }[] }
    | string
    | null
    | undefined;
  if (typeof choice !== 'object' || choice === null) return { tools, choice: choice ?? undefined };
  if (choice.type === 'allowed_tools') {
    const allowed = new Set((choice.tools ?? []).map((tool) => tool.name));
    tools = tools.filter((tool) => allowed.has(tool.name));
    return { tools, choice: choice.mode ?? 'auto' };
  }
  return { tools, choice: { type: 'function', function: { name: choice.name } } };
}

/**
 * A Responses request → an OpenAI chat request for the model server: one leading system message, contiguous
 * assistant-side items merged into one assistant message, tool outputs as `tool` messages, reasoning as the
 * assistant's `reasoning`; function tools nested, custom tools as one-string functions, namespaces
 * flattened, hosted tools left out; `max_output_tokens` as the output limit, `text.format` as `response_format`, `reasoning.effort` as
 * `reasoning_effort` (`none` turns thinking off in the chat template, as `/v1/messages` does). Fields with
 * no upstream meaning (`store`, `include`, `metadata`, `prompt_cache_key`, `text.verbosity`, `user`, …) are
 * not sent.
 */
export function toChatRequest(request: ResponsesRequest): ChatRequest {
  const chat: ChatRequest = { model: request.model, messages: chatMessages(request) };
  const { tools, choice } = toolsOf(request);
  if (tools.length > 0) {
    chat.tools = tools.map(chatTool);
    if (choice !== undefined) chat.tool_choice = choice;
    if (typeof request.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = request.parallel_tool_calls;
  }
  if (typeof request.max_output_tokens === 'number') {
    chat.max_tokens = request.max_output_tokens;
    chat.max_completion_tokens = request.max_output_tokens;
  }
  if (typeof request.temperature === 'number') chat.temperature = request.temperature;
  if (typeof request.top_p === 'number') chat.top_p = request.top_p;
  const format = request.text?.format;
  if (format?.type === 'json_object') chat.response_format = { type: 'json_object' };
  else if (format?.type === 'json_schema') {
    const { name, schema, strict, description } = format;
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name, schema, strict: strict ?? undefined, description },
    };
  }
  const effort = request.reasoning?.effort;
  if (effort === 'none') chat.chat_template_kwargs = { enable_thinking: false };
  else if (typeof effort === 'string') chat.reasoning_effort = effort;
  if (request.stream === true) chat.stream = true;
  return chat;
}
