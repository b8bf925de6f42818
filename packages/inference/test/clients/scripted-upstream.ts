import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FixedUpstream, startFixedUpstream } from '../support/fixed-upstream.js';
import { type Body, embeddingTokens, OVER_REPORT, promptTokens } from '../support/metering-upstream.js';

/** What the upstream answers when nothing scripted applies. */
export const HELLO = 'Hello from the scripted upstream.';
/** The answer's prefix after a tool result: the result's text follows. */
export const TOOL_SAID = 'The tool answered:';
/** The answer's prefix to a prompt with images: their count follows. */
export const IMAGES_SEEN = 'Images seen:';
/** Dimensions of every embedding vector; its first component is the item's index + 1. */
export const EMBEDDING_DIMENSIONS = 4;

interface Message {
  role: string;
  content?: unknown;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

type Turn = { text: string } | { call: ToolCall };

export interface ScriptedUpstream extends FixedUpstream {
  /** Every chat request body received, in order. */
  chats: Body[];
  /**
   * From now on a conversation whose user turns contain `marker` gets `calls` one after the other, the next one
   * each time a tool result came back, as long as the request offers that tool.
   */
  scriptToolCalls(marker: string, ...calls: ToolCall[]): void;
}

const partsOf = (content: unknown): Array<{ type?: string; text?: string }> =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];

const textOf = (content: unknown) =>
  partsOf(content)
    .map((part) => part.text ?? '')
    .join('');

const toolNames = (body: Body) =>
  ((body.tools ?? []) as Array<{ function?: { name?: string } }>).map((tool) => tool.function?.name);

/**
 * A vLLM-like chat upstream that plays its part of an agent's conversation: after a tool result it repeats the
 * result; a prompt with images gets their count; a scripted marker in the last user turn gets a tool call;
 * anything else gets `HELLO`. Usage is metered like `metering-upstream` (OVER_REPORT over-reports it).
 */
export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const chats: Body[] = [];
  const scripted = new Map<string, ToolCall[]>();

  const turnFor = (body: Body): Turn => {
    const messages = (body.messages ?? []) as Message[];
    const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
    const latest = messages.slice(lastAssistant + 1);
    const said = messages
      .filter((m) => m.role === 'user')
      .map((m) => textOf(m.content))
      .join('\n');
    const results = messages.filter((m) => m.role === 'tool').length;
    for (const [marker, calls] of scripted) {
      const call = calls[results];
      if (said.includes(marker) && call && toolNames(body).includes(call.name)) return { call };
    }
    const toolResult = latest.findLast((m) => m.role === 'tool');
    if (toolResult) return { text: `${TOOL_SAID} ${textOf(toolResult.content)}` };
    const images = latest
      .filter((m) => m.role === 'user')
      .flatMap((m) => partsOf(m.content))
      .filter((p) => p.type === 'image_url').length;
    if (images > 0) return { text: `${IMAGES_SEEN} ${images}` };
    return { text: HELLO };
  };

  const respond = (request: IncomingMessage, text: string, response: ServerResponse) => {
    const body = JSON.parse(text) as Body;
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.url === '/tokenize') return json({ count: promptTokens(body), max_model_len: 262_144 });
    if (request.url === '/v1/embeddings') {
      const items = typeof body.input === 'string' ? [body.input] : (body.input as unknown[]);
      const prompt = embeddingTokens(body.input);
      return json({
        object: 'list',
        data: items.map((_, index) => ({ index, object: 'embedding', embedding: [index + 1, 0.5, -0.25, 0] })),
        usage: { prompt_tokens: prompt, total_tokens: prompt },
      });
    }
    chats.push(body);
    const turn = turnFor(body);
    const prompt = text.includes(OVER_REPORT) ? 100_000 : promptTokens(body);
    const completion = 'text' in turn ? turn.text.split(' ').length : 12;
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    const finish = 'text' in turn ? 'stop' : 'tool_calls';
    const call = 'call' in turn && {
      index: 0,
      id: `chatcmpl-tool-${chats.length}`,
      type: 'function',
      function: { name: turn.call.name, arguments: JSON.stringify(turn.call.arguments) },
    };
    const base = { id: `chatcmpl-${chats.length}`, created: 1_735_142_223, model: body.model };
    if (body.stream !== true) {
      const message = { role: 'assistant', content: 'text' in turn ? turn.text : null, tool_calls: call ? [call] : [] };
      return json({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish, stop_reason: null }],
        usage,
      });
    }
    const options = (body.stream_options ?? {}) as { include_usage?: boolean; continuous_usage_stats?: boolean };
    const chunk = (choices: unknown[], extra: object = options.continuous_usage_stats ? { usage } : {}) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
    const delta = (value: object, finish_reason: string | null = null) =>
      chunk([{ index: 0, delta: value, finish_reason }]);
    const deltas = [delta({ role: 'assistant', content: '' })];
    if ('text' in turn) {
      for (const word of turn.text.split(/(?<= )/)) deltas.push(delta({ content: word }));
    } else if (call) {
      const args = call.function.arguments;
      const half = Math.floor(args.length / 2);
      deltas.push(
        delta({ tool_calls: [{ ...call, function: { name: call.function.name, arguments: args.slice(0, half) } }] }),
      );
      deltas.push(delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }));
    }
    deltas.push(delta({}, finish));
    if (options.include_usage) deltas.push(chunk([], { usage }));
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(`${deltas.join('')}data: [DONE]\n\n`);
  };

  const upstream = await startFixedUpstream(respond);
  return {
    ...upstream,
    chats,
    scriptToolCalls: (marker, ...calls) => {
      scripted.set(marker, calls);
    },
  };
}
