import { logProblem, normalizeError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { anthropicErrorBody, anthropicErrorHeaders } from '../anthropic/errors.js';
import { type AnthropicUsage, toAnthropicMessage } from '../anthropic/from-openai.js';
import { AnthropicStream } from '../anthropic/stream.js';
import { toChatPrompt, toChatRequest } from '../anthropic/to-openai.js';
import { validateMessages } from '../anthropic/validation.js';
import {
  type CountTokensRequest,
  countTokensRequestSchema,
  type MessagesRequest,
  messagesRequestSchema,
} from '../anthropic/wire.js';
import type { Catalogue } from '../catalogue.js';
import { estimateChatPromptTokens } from '../tenancy/estimate.js';
import { checkPromptFits } from '../wire/input-size.js';
import { checkJsonDepth } from '../wire/json-depth.js';
import { admit, reportedUsage, type ServedUsage } from './admission.js';
import { dispatchChat, servedModelFor } from './chat-dispatch.js';
import { tokenizeChat } from './prompt-count.js';
import { clientGone, isStreamed, readUpstreamJson, relayStream } from './upstream-io.js';

/** Cache reads are billed as input: the seed does not distinguish cached from uncached input tokens. */
const billable = (usage: AnthropicUsage): ServedUsage => ({
  input_tokens: usage.input_tokens + usage.cache_read_input_tokens,
  output_tokens: usage.output_tokens,
});

/**
 * What `count_tokens` reserves: it is free, but only for a key with a token left in its budget, and it takes a
 * request of the per-minute limits and a concurrency slot like any other request.
 */
const COUNT_TOKENS_PROBE = 1;

/**
 * Anthropic's Messages API (`/v1/messages`, `/v1/messages/count_tokens`) translated onto the same upstreams as
 * `/v1/chat/completions`, plus the `HEAD /` probe of Claude Code. The routes live in their own encapsulated
 * plugin so that every error on them, authentication included, answers in Anthropic's envelope with a
 * `request-id` header. Keys, model allowlists, budgets and accounting apply as on `/v1/chat/completions`;
 * `count_tokens` is free but admitted like the others (see `COUNT_TOKENS_PROBE`), and a prompt that cannot fit
 * the context is refused before the model server tokenises it.
 */
export function registerMessagesRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  allowedMediaHosts: ReadonlySet<string>,
): void {
  app.head('/', (_request, reply) => {
    reply.code(200).send();
  });

  app.register(async (scope) => {
    scope.addHook('onRequest', (request, reply, done) => {
      reply.header('request-id', request.id);
      done();
    });
    scope.setErrorHandler((error, request, reply) => {
      const problem = normalizeError(error);
      logProblem(request, error, problem);
      return reply
        .code(problem.status)
        .headers({ 'request-id': request.id, ...problem.headers, ...anthropicErrorHeaders(problem) })
        .type('application/json')
        .send(anthropicErrorBody(problem, request.id));
    });

    scope.post('/v1/messages', { schema: { body: messagesRequestSchema } }, async (request, reply) => {
      const body = request.body as MessagesRequest;
      checkJsonDepth(body);
      const served = servedModelFor(catalogue, request, body.model);
      validateMessages(body, { model: served.config, allowedMediaHosts });
      const chat = toChatRequest(body);
      const { admitted, upstream, signal, promptEstimate } = await dispatchChat(
        request,
        reply,
        served,
        chat,
        allowedMediaHosts,
      );
      if (!isStreamed(upstream)) {
        const raw = await readUpstreamJson(upstream, signal);
        const message = toAnthropicMessage(raw, body.model, body.stop_sequences);
        admitted.served(() => reportedUsage(raw) && billable(message.usage));
        return reply.type('application/json').send(JSON.stringify(message));
      }
      const stream = new AnthropicStream({
        model: body.model,
        stopSequences: body.stop_sequences,
        estimatedInputTokens: promptEstimate,
      });
      admitted.served(() => (stream.usageReported ? billable(stream.usage) : undefined));
      relayStream(reply, upstream, stream, catalogue.streamKeepaliveMs);
      return reply;
    });

    scope.post('/v1/messages/count_tokens', { schema: { body: countTokensRequestSchema } }, async (request, reply) => {
      const body = request.body as CountTokensRequest;
      checkJsonDepth(body);
      const served = servedModelFor(catalogue, request, body.model);
      validateMessages(body, { model: served.config, allowedMediaHosts });
      const prompt = toChatPrompt(body);
      checkPromptFits(estimateChatPromptTokens(prompt), served.config.contextLength, 'messages');
      await admit(request, reply, served.config, {
        promptBound: COUNT_TOKENS_PROBE,
        output: { choices: 0, requested: undefined },
      });
      const count = await tokenizeChat(served, prompt, clientGone(reply));
      return reply.type('application/json').send(`{"input_tokens":${count}}`);
    });
  });
}
