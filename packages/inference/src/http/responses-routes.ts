import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../catalogue.js';
import { responseContext, toResponse } from '../responses/from-chat.js';
import { ResponsesStream } from '../responses/stream.js';
import { toChatRequest } from '../responses/to-chat.js';
import { validateResponsesRequest } from '../responses/validation.js';
import { type ResponsesRequest, responsesRequestSchema } from '../responses/wire.js';
import { checkJsonDepth } from '../wire/json-depth.js';
import { reportedUsage } from './admission.js';
import { dispatchChat, servedModelFor } from './chat-dispatch.js';
import { isStreamed, readUpstreamJson, relayStream } from './upstream-io.js';

/** The routes of stored responses, which this service answers as not found: it stores none. */
const STORED_RESPONSE_ROUTES = [
  ['GET', '/v1/responses/:id'],
  ['DELETE', '/v1/responses/:id'],
  ['POST', '/v1/responses/:id/cancel'],
  ['GET', '/v1/responses/:id/input_items'],
] as const;

/**
 * OpenAI's Responses API (`POST /v1/responses`) translated onto the same upstreams as `/v1/chat/completions`,
 * through the same validation, key allowlist, admission and accounting (`dispatchChat`). Nothing is stored:
 * every response says `store: false`, and `previous_response_id`, background mode and the routes that read
 * stored responses answer OpenAI-style errors.
 */
export function registerResponsesRoutes(
  app: FastifyInstance,
  catalogue: Catalogue,
  allowedMediaHosts: ReadonlySet<string>,
): void {
  app.post('/v1/responses', { schema: { body: responsesRequestSchema } }, async (request, reply) => {
    const body = request.body as ResponsesRequest;
    checkJsonDepth(body);
    const served = servedModelFor(catalogue, request, body.model);
    validateResponsesRequest(body, served.config);
    const { admitted, upstream, signal } = await dispatchChat(
      request,
      reply,
      served,
      toChatRequest(body),
      allowedMediaHosts,
    );
    const context = responseContext(body);
    if (!isStreamed(upstream)) {
      const raw = await readUpstreamJson(upstream, signal);
      admitted.served(() => reportedUsage(raw));
      return reply.type('application/json').send(JSON.stringify(toResponse(raw, context)));
    }
    const stream = new ResponsesStream(context);
    admitted.served(() => stream.usage);
    relayStream(reply, upstream, stream, catalogue.streamKeepaliveMs);
    return reply;
  });

  for (const [method, url] of STORED_RESPONSE_ROUTES) {
    app.route({
      method,
      url,
      handler: async (request) => {
        const { id } = request.params as { id: string };
        throw new HttpError(
          404,
          'not_found',
          `Response with id '${id}' not found. This service stores no responses (\`store\` is always false).`,
          'response_id',
        );
      },
    });
  }
}
