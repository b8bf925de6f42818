import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { anthropicModelPage, type ModelPageQuery, toAnthropicModel, wantsAnthropicShape } from '../anthropic/models.js';
import type { ModelConfig } from '../config.js';
import { allowsModel } from '../tenancy/active-key.js';
import { toModelObject } from '../wire/models.js';
import { keyOf } from './auth.js';

export const modelNotFound = (id: string) =>
  new HttpError(404, 'model_not_found', `The model \`${id}\` does not exist or you do not have access to it.`, 'model');

const modelPageQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
    after_id: { type: 'string' },
    before_id: { type: 'string' },
  },
} as const;

/** The answers of `/v1/models` for one catalogue, rendered once per reload. */
function renderModels(models: readonly ModelConfig[], ownedBy: string) {
  const objects = new Map(models.map((m) => [m.id, JSON.stringify(toModelObject(m, ownedBy))]));
  return {
    models,
    objects,
    list: `{"object":"list","data":[${[...objects.values()].join(',')}]}`,
    anthropicModels: models.map(toAnthropicModel),
  };
}

/** `models` answers the catalogue served now (it changes on a reload). */
export function registerModelRoutes(app: FastifyInstance, models: () => readonly ModelConfig[], ownedBy: string): void {
  let rendered = renderModels(models(), ownedBy);
  const current = () => {
    if (rendered.models !== models()) rendered = renderModels(models(), ownedBy);
    return rendered;
  };
  app.get('/v1/models', { schema: { querystring: modelPageQuerySchema } }, (request, reply) => {
    const key = keyOf(request);
    const { objects, list, anthropicModels } = current();
    if (wantsAnthropicShape(request.headers)) {
      const visible = anthropicModels.filter((m) => allowsModel(key, m.id));
      return reply.send(anthropicModelPage(visible, request.query as ModelPageQuery));
    }
    if (key.allowedModels === undefined) return reply.type('application/json').send(list);
    const allowed = [...objects].filter(([id]) => allowsModel(key, id)).map(([, object]) => object);
    reply.type('application/json').send(`{"object":"list","data":[${allowed.join(',')}]}`);
  });
  // Model ids contain a slash (`vendor/name`), hence the wildcard.
  app.get('/v1/models/*', (request, reply) => {
    const id = (request.params as { '*': string })['*'];
    const { objects, anthropicModels } = current();
    const object = allowsModel(keyOf(request), id) ? objects.get(id) : undefined;
    if (!object) throw modelNotFound(id);
    if (wantsAnthropicShape(request.headers)) return reply.send(anthropicModels.find((m) => m.id === id));
    reply.type('application/json').send(object);
  });
}
