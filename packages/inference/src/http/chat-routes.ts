import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../catalogue.js';
import { allowsModel } from '../tenancy/active-key.js';
import { effectiveMaxOutput, estimateChatPromptTokens } from '../tenancy/estimate.js';
import { type ChatRequest, chatRequestSchema } from '../wire/chat.js';
import { validateChatRequest } from '../wire/chat-validation.js';
import { normaliseCompletion } from '../wire/completion.js';
import { SseRelay } from '../wire/sse-relay.js';
import { toUpstreamChatBody, usageRequestOf } from '../wire/upstream-request.js';
import { admit, parseUsage, type ServedUsage } from './admission.js';
import { keyOf } from './auth.js';
import { modelNotFound } from './model-routes.js';
import { clientGone, readUpstreamJson, relayStream, throwUpstreamError } from './upstream-io.js';

export function registerChatRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  allowedMediaHosts: ReadonlySet<string>,
): void {
  app.post('/v1/chat/completions', { schema: { body: chatRequestSchema } }, async (request, reply) => {
    const body = request.body as ChatRequest;
    const served = catalogue.get(body.model);
    if (!served || !allowsModel(keyOf(request), body.model)) throw modelNotFound(body.model);
    validateChatRequest(body, served.config, allowedMediaHosts);
    const estimate = estimateChatPromptTokens(body);
    const maxOutput = effectiveMaxOutput(body, estimate, served.config.contextLength);
    const admitted = await admit(request, reply, served.config, estimate, maxOutput);
    const signal = clientGone(reply);
    const upstream = await served.group.dispatch({
      path: '/v1/chat/completions',
      body: toUpstreamChatBody(body, served.upstreamName),
      signal,
    });
    if (upstream.statusCode !== 200) return throwUpstreamError(upstream);
    if (body.stream !== true) {
      const completion = normaliseCompletion(await readUpstreamJson(upstream, signal), served.config.id);
      admitted.served(() => completion.usage as ServedUsage);
      return reply.type('application/json').send(JSON.stringify(completion));
    }
    const relay = new SseRelay(usageRequestOf(body), served.rename);
    admitted.served(() => parseUsage(relay.lastUsage));
    relayStream(reply, upstream, relay);
    return reply;
  });
}
