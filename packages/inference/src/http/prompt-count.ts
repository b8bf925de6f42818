import { EventEmitter } from 'node:events';
import { HttpError } from '@atrium/core';
import type { FastifyReply } from 'fastify';
import type { ServedModel } from '../catalogue.js';
import type { UpstreamSignal } from '../router/upstream-group.js';
import { beyondTokenizer } from '../tenancy/estimate.js';
import type { ChatRequest } from '../wire/chat.js';
import { clientGone, readUpstreamJson, throwUpstreamError } from './upstream-io.js';

/**
 * The templated prompt's tokens by the model server's own tokenizer: vLLM's `POST /tokenize` in its chat form
 * (`{model, messages, tools, add_generation_prompt}` → `{count, tokens, max_model_len}`), which the embedded
 * engine serves too. Throws the upstream's error, or a 502 for an answer without a count.
 */
export async function tokenizeChat(served: ServedModel, prompt: ChatRequest, signal: UpstreamSignal): Promise<number> {
  const { messages, tools, chat_template_kwargs } = prompt;
  const upstream = await served.group.dispatch({
    path: '/tokenize',
    body: JSON.stringify({
      model: served.upstreamName,
      messages,
      tools,
      chat_template_kwargs,
      add_generation_prompt: true,
    }),
    signal,
  });
  if (upstream.statusCode !== 200) return throwUpstreamError(upstream);
  const { count } = (await readUpstreamJson(upstream, signal)) as { count?: unknown };
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    throw new HttpError(502, 'upstream_error', 'the model server sent a broken response');
  return count;
}

class TimedSignal extends EventEmitter implements UpstreamSignal {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * Admission's exact count of a chat request's prompt: the tokenizer's count plus what it leaves out (see
 * `beyondTokenizer`), or undefined when the count fails, the client leaves, or it takes longer than `timeoutMs`.
 */
export const promptCounter =
  (served: ServedModel, chat: ChatRequest, reply: FastifyReply) =>
  async (timeoutMs: number): Promise<number | undefined> => {
    const signal = new TimedSignal();
    const gone = clientGone(reply);
    const abort = () => signal.abort();
    gone.once('abort', abort);
    const timer = setTimeout(abort, timeoutMs);
    try {
      return (await tokenizeChat(served, chat, signal)) + beyondTokenizer(chat);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      gone.off('abort', abort);
    }
  };
