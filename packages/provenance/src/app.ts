import { join } from 'node:path';
import { createHttpApp, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { ProvenanceConfig } from './config.js';
import { formatProvenanceError } from './http/errors.js';
import { registerServerRoutes } from './http/server-routes.js';
import { openProvenanceDatabase } from './storage/open.js';

export async function buildProvenanceApp(config: ProvenanceConfig, context: ServiceContext): Promise<FastifyInstance> {
  const database = await openProvenanceDatabase(config.database ?? `sqlite:${join(context.dataDir, 'provenance.db')}`);
  const app = await createHttpApp({
    service: 'provenance',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatProvenanceError,
    exposedHeaders: ['x-total-count', 'link'],
  });
  app.addHook('onClose', () => database.close());
  registerServerRoutes(app, config.aiidaVersion);
  return app;
}
