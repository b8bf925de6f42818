import type { FastifyInstance } from 'fastify';
import type { InferenceConfig } from '../config.js';
import { toModelObject } from '../wire/models.js';

export function registerModelRoutes(app: FastifyInstance, config: InferenceConfig): void {
  const list = JSON.stringify({ object: 'list', data: config.models.map((m) => toModelObject(m, config.ownedBy)) });
  app.get('/v1/models', (_request, reply) => {
    reply.type('application/json').send(list);
  });
}
