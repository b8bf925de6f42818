import type { ChatMessage, ChatRequest, ContentPart } from '../wire/chat.js';
import type {
  ContentBlock,
  CountTokensRequest,
  DocumentBlock,
  ImageBlock,
  MessageParam,
  MessagesRequest,
  SearchResultBlock,
  TextBlock,
  ToolChoice,
  ToolResultBlock,
  ToolResultContent,
} from './wire.js';

/** Claude Code's per-request billing hash; dropped so it does not defeat prefix caching upstream. */
const BILLING_HEADER = 'x-anthropic-billing-header';

const imagePart = (block: ImageBlock): ContentPart => ({
  type: 'image_url',
  image_url: {
    url:
      block.source.type === 'base64' ? `data:${block.source.media_type};base64,${block.source.data}` : block.source.url,
  },
});

/** A document's title and context, then its text (and images, for a `content` source). */
function documentParts(block: DocumentBlock): ContentPart[] {
  const heading = [block.title, block.context].filter((s): s is string => typeof s === 'string' && s !== '');
  const parts: ContentPart[] = heading.length > 0 ? [{ type: 'text', text: heading.join('\n') }] : [];
  const source = block.source;
  if (source.type === 'text') parts.push({ type: 'text', text: source.data });
  else if (typeof source.content === 'string') parts.push({ type: 'text', text: source.content });
  else
    for (const part of source.content)
      parts.push(part.type === 'text' ? { type: 'text', text: part.text } : imagePart(part));
  return parts;
}

/** A single text stays a string (every backend accepts it); anything else becomes OpenAI content parts. */
function contentOf(parts: ContentPart[]): string | ContentPart[] {
  if (parts.length === 1 && parts[0]?.type === 'text') return parts[0].text as string;
  return parts;
}

function systemText(request: CountTokensRequest): string {
  const segments: string[] = [];
  const add = (content: string | readonly (TextBlock | ContentBlock)[]) => {
    if (typeof content === 'string') {
      if (content.length > 0) segments.push(content);
      return;
    }
    for (const block of content) {
      if (block.type === 'text' && !block.text.startsWith(BILLING_HEADER)) segments.push(block.text);
    }
  };
  if (request.system !== undefined) add(request.system);
  for (const message of request.messages) if (message.role === 'system') add(message.content);
  return segments.join('\n\n');
}

/** A search result as text: its title and source, then its text blocks. */
const searchResultText = (block: SearchResultBlock): string =>
  [block.title, block.source, ...block.content.map((part) => part.text)].join('\n');

/**
 * The text a tool result's block reads as, or its image parts. A `tool_reference` becomes a line naming the
 * tool, whose definition `toChatPrompt` then sends upstream (see `deferredToolsInUse`).
 */
function toolResultParts(block: ToolResultContent): ContentPart[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image':
      return [imagePart(block)];
    case 'document':
      return documentParts(block);
    case 'search_result':
      return [{ type: 'text', text: searchResultText(block) }];
    case 'tool_reference':
      return [{ type: 'text', text: `Tool ${block.tool_name} is now available.` }];
    case 'browser_state':
      return [
        {
          type: 'text',
          text: `Browser state: ${JSON.stringify({ tabs: block.tabs, state_changes: block.state_changes })}`,
        },
      ];
  }
}

/** A tool result: its text as a `tool` message; its images, which chat tool messages cannot hold, in a user message after it. */
function toolResultMessages(block: ToolResultBlock): ChatMessage[] {
  const texts: string[] = [];
  const images: ContentPart[] = [];
  if (typeof block.content === 'string') texts.push(block.content);
  else
    for (const part of (block.content ?? []).flatMap(toolResultParts))
      part.type === 'text' ? texts.push(part.text as string) : images.push(part);
  const text = texts.join('\n');
  const tool: ChatMessage = {
    role: 'tool',
    tool_call_id: block.tool_use_id,
    content: block.is_error ? `Error: ${text}` : text,
  };
  return images.length > 0 ? [tool, { role: 'user', content: images }] : [tool];
}

/** A user turn: its tool results first (each a `tool` message, in order), then its text and images. */
function userMessages(content: string | ContentBlock[]): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') out.push(...toolResultMessages(block));
    else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(imagePart(block));
    else if (block.type === 'document') parts.push(...documentParts(block));
    else if (block.type === 'search_result') parts.push({ type: 'text', text: searchResultText(block) });
  }
  if (parts.length > 0) out.push({ role: 'user', content: contentOf(parts) });
  return out;
}

/** An assistant turn: text as content, `tool_use` as tool calls, `thinking` as reasoning; redacted thinking dropped. */
function assistantMessage(content: string | ContentBlock[]): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  let reasoning = '';
  const toolCalls: unknown[] = [];
  for (const block of content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning += block.thinking;
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    }
  }
  const message: ChatMessage = { role: 'assistant', content: toolCalls.length > 0 && text === '' ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  return message;
}

function chatMessages(request: CountTokensRequest): ChatMessage[] {
  const system = systemText(request);
  const messages: ChatMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
  for (const message of request.messages as MessageParam[]) {
    if (message.role === 'system') continue;
    if (message.role === 'assistant') messages.push(assistantMessage(message.content));
    else messages.push(...userMessages(message.content));
  }
  return messages;
}

/** The tools a `tool_reference` in some tool result has named: the deferred tools the model may call now. */
function deferredToolsInUse(messages: readonly MessageParam[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const part of block.content) if (part.type === 'tool_reference') names.add(part.tool_name);
    }
  }
  return names;
}

function toolChoiceOf(choice: ToolChoice): unknown {
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return choice.type;
  }
}

/**
 * The prompt part of the translation, shared by `/v1/messages` and `count_tokens`. Tool search: a tool with
 * `defer_loading` is sent upstream only once a `tool_reference` has named it, as Anthropic loads it.
 */
export function toChatPrompt(request: CountTokensRequest): ChatRequest {
  const chat: ChatRequest = { model: request.model, messages: chatMessages(request) };
  const loaded = deferredToolsInUse(request.messages);
  const tools = (request.tools ?? []).filter((tool) => tool.defer_loading !== true || loaded.has(tool.name));
  if (tools.length > 0) {
    chat.tools = tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
    }));
  }
  const choice = request.tool_choice;
  if (choice) {
    chat.tool_choice = toolChoiceOf(choice);
    if ('disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use) chat.parallel_tool_calls = false;
  }
  const thinking = request.thinking;
  if (thinking) {
    chat.chat_template_kwargs = { enable_thinking: thinking.type !== 'disabled' };
    if (thinking.type === 'enabled') chat.thinking_token_budget = thinking.budget_tokens;
  }
  return chat;
}

/** Anthropic request → OpenAI chat request (llm-gateway.md §2.8). Always one choice. */
export function toChatRequest(request: MessagesRequest): ChatRequest {
  const chat: ChatRequest = {
    ...toChatPrompt(request),
    max_tokens: request.max_tokens,
    max_completion_tokens: request.max_tokens,
  };
  if (request.stop_sequences && request.stop_sequences.length > 0) chat.stop = request.stop_sequences;
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (typeof request.metadata?.user_id === 'string') chat.user = request.metadata.user_id;
  const output = request.output_config;
  if (output?.effort !== undefined) chat.reasoning_effort = output.effort;
  if (output?.format) {
    chat.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: output.format.schema } };
  }
  if (request.stream === true) chat.stream = true;
  return chat;
}
