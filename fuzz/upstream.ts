// A vLLM-like upstream for `fuzz/echo`: `n` choices of `max_tokens` tokens each (16 by default), usage summed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FixedUpstream, startFixedUpstream } from '../packages/inference/test/support/fixed-upstream.js';

const PROMPT_TOKENS = 10;

function answer(_request: IncomingMessage, body: string, response: ServerResponse): void {
  const request = JSON.parse(body) as { n?: number; max_tokens?: number; stream?: boolean };
  const n = request.n ?? 1;
  const each = request.max_tokens ?? 16;
  const usage = { prompt_tokens: PROMPT_TOKENS, completion_tokens: n * each, total_tokens: PROMPT_TOKENS + n * each };
  const choices = Array.from({ length: n }, (_, index) => ({ index, text: 'ok '.repeat(each).trim() }));
  if (request.stream) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const c of choices) {
      const delta = { index: c.index, delta: { role: 'assistant', content: c.text }, finish_reason: 'length' };
      response.write(
        `data: ${JSON.stringify({ id: 'f', object: 'chat.completion.chunk', created: 1, model: 'fuzz/echo', choices: [delta] })}\n\n`,
      );
    }
    response.end(
      `data: ${JSON.stringify({ id: 'f', object: 'chat.completion.chunk', created: 1, model: 'fuzz/echo', choices: [], usage })}\n\ndata: [DONE]\n\n`,
    );
    return;
  }
  const message = (text: string) => ({ role: 'assistant', content: text });
  const text = JSON.stringify({
    id: 'f',
    object: 'chat.completion',
    created: 1,
    model: 'fuzz/echo',
    choices: choices.map((c) => ({ index: c.index, message: message(c.text), finish_reason: 'length' })),
    usage,
  });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export const startEchoUpstream = (): Promise<FixedUpstream> => startFixedUpstream(answer);
