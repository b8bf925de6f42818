import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../catalogue.js';
import { type ChatRequest, chatRequestSchema } from '../wire/chat.js';
import { normaliseCompletion } from '../wire/completion.js';
import { checkJsonDepth } from '../wire/json-depth.js';
import { SseRelay } from '../wire/sse-relay.js';
import { usageRequestOf } from '../wire/upstream-request.js';
import { parseUsage, reportedUsage, type ServedUsage } from './admission.js';
import { dispatchChat, servedModelFor } from './chat-dispatch.js';
import { keepRawJson } from './raw-json.js';
import { isStreamed, readUpstreamJson, relayStream } from './upstream-io.js';

export function registerChatRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  allowedMediaHosts: ReadonlySet<string>,
): void {
  app.register(async (scope) => {
    keepRawJson(scope);
    scope.post('/v1/chat/completions', { schema: { body: chatRequestSchema } }, async (request, reply) => {
      const body = request.body as ChatRequest;
      checkJsonDepth(body);
      const served = servedModelFor(catalogue, request, body.model);
      const { admitted, upstream, signal } = await dispatchChat(
        request,
        reply,
        served,
        body,
        allowedMediaHosts,
        request.rawJson,
      );
      if (!isStreamed(upstream)) {
        const raw = await readUpstreamJson(upstream, signal);
        const completion = normaliseCompletion(raw, served.config.id);
        admitted.served(() => reportedUsage(raw) && (completion.usage as ServedUsage));
        return reply.type('application/json').send(JSON.stringify(completion));
      }
      const relay = new SseRelay(usageRequestOf(body), served.config.id);
      admitted.served(() => parseUsage(relay.lastUsage));
      relayStream(reply, upstream, relay, catalogue.streamKeepaliveMs);
      return reply;
    });
  });
}
