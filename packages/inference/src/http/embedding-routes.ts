import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../catalogue.js';
import { allowsModel } from '../tenancy/active-key.js';
import { estimateEmbeddingTokens } from '../tenancy/estimate.js';
import { type EmbeddingRequest, embeddingRequestSchema, toClientEmbeddings } from '../wire/embeddings.js';
import { checkEmbeddingInputFits } from '../wire/input-size.js';
import { checkJsonDepth } from '../wire/json-depth.js';
import { admit, reportedUsage } from './admission.js';
import { keyOf } from './auth.js';
import { modelNotFound } from './model-routes.js';
import { clientGone, readUpstreamJson, throwUpstreamError } from './upstream-io.js';

export function registerEmbeddingRoutes(app: FastifyInstance, catalogue: Catalogue): void {
  app.post('/v1/embeddings', { schema: { body: embeddingRequestSchema } }, async (request, reply) => {
    const body = request.body as EmbeddingRequest;
    checkJsonDepth(body);
    const served = catalogue.get(body.model);
    if (!served || !allowsModel(keyOf(request), body.model)) throw modelNotFound(body.model);
    if (!served.config.capabilities.embeddings) {
      throw new HttpError(400, 'embeddings_not_supported', `model '${body.model}' does not serve embeddings`, 'model');
    }
    const { contextLength } = served.config;
    checkEmbeddingInputFits(body.input, contextLength);
    const admitted = await admit(request, reply, served.config, {
      promptBound: estimateEmbeddingTokens(body.input, contextLength),
      output: { choices: 0, requested: undefined },
    });
    const signal = clientGone(reply);
    const upstream = await served.group.dispatch({
      path: '/v1/embeddings',
      body: JSON.stringify({ ...body, model: served.upstreamName }),
      signal,
    });
    if (upstream.statusCode !== 200) return throwUpstreamError(upstream);
    const raw = await readUpstreamJson(upstream, signal);
    const result = toClientEmbeddings(raw, served.config.id, body.encoding_format ?? 'float');
    admitted.served(() => reportedUsage(raw) && result.usage);
    return reply.type('application/json').send(JSON.stringify(result));
  });
}
