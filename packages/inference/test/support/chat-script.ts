import type { IncomingMessage, ServerResponse } from 'node:http';

/** A prompt word that makes the scripted model reason before it answers. */
export const THINK = 'think first';
/** A prompt word that makes a stream send one chunk and then cut the connection. */
export const BREAK_OFF = 'break off';

export const SCRIPT_USAGE = {
  prompt_tokens: 21,
  completion_tokens: 9,
  total_tokens: 30,
  prompt_tokens_details: { cached_tokens: 4 },
  completion_tokens_details: { reasoning_tokens: 3 },
};

interface ChatBody {
  stream?: boolean;
  max_completion_tokens?: number;
  tools?: { function: { name: string; parameters?: { properties?: Record<string, unknown> } } }[];
  messages: { role: string; content: unknown }[];
}

interface Turn {
  reasoning?: string[];
  content?: string[];
  call?: { name: string; args: string[] };
  finish: string;
}

/**
 * What the model says: a call of its first tool while no tool result is in (a one-string `input` for a tool
 * that takes one, a city otherwise); after a tool result, that result quoted; reasoning first when asked to
 * think; cut short at a `max_completion_tokens` under 5.
 */
function turnFor(body: ChatBody): Turn {
  const last = body.messages.at(-1);
  if (last?.role === 'tool') return { content: ['Got: ', String(last.content)], finish: 'stop' };
  const tool = body.tools?.[0]?.function;
  if (tool) {
    const args = tool.parameters?.properties?.input ? ['{"input":"*** Begin', ' Patch"}'] : ['{"city":', '"Paris"}'];
    return { call: { name: tool.name, args }, finish: 'tool_calls' };
  }
  if ((body.max_completion_tokens ?? 100) < 5) return { content: ['Par'], finish: 'length' };
  const reasoning = JSON.stringify(body.messages).includes(THINK) ? ['Thinking it', ' over.'] : undefined;
  return { reasoning, content: ['Paris', '.'], finish: 'stop' };
}

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

function streamChunks(turn: Turn): string {
  const choice = (delta: unknown, finish: string | null = null) => ({
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  let out = sse(choice({ role: 'assistant', content: '' }));
  for (const piece of turn.reasoning ?? []) out += sse(choice({ reasoning: piece }));
  for (const piece of turn.content ?? []) out += sse(choice({ content: piece }));
  if (turn.call) {
    const { name, args } = turn.call;
    out += sse(
      choice({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] }),
    );
    for (const piece of args) out += sse(choice({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  out += sse({ ...choice({}, turn.finish), usage: SCRIPT_USAGE });
  return `${out}${sse({ choices: [], usage: SCRIPT_USAGE })}data: [DONE]\n\n`;
}

function completion(turn: Turn): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: turn.content?.join('') ?? null };
  if (turn.reasoning) message.reasoning = turn.reasoning.join('');
  if (turn.call)
    message.tool_calls = [
      { id: 'call_1', type: 'function', function: { name: turn.call.name, arguments: turn.call.args.join('') } },
    ];
  return { id: 'chatcmpl-1', choices: [{ index: 0, message, finish_reason: turn.finish }], usage: SCRIPT_USAGE };
}

/** A scripted vLLM-like chat model (see `turnFor`) that records the body of every request in `received`. */
export function scriptedChat(received: ChatBody[]) {
  return (_request: IncomingMessage, text: string, response: ServerResponse) => {
    const body = JSON.parse(text) as ChatBody;
    received.push(body);
    const turn = turnFor(body);
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify(completion(turn)));
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunks = streamChunks(turn);
    if (!text.includes(BREAK_OFF)) return void response.end(chunks);
    response.write(chunks.slice(0, chunks.indexOf('\n\n') + 2));
    setTimeout(() => response.socket?.destroy(), 50);
  };
}
