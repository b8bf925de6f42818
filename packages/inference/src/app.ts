import { join } from 'node:path';
import { createHttpApp, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { InferenceConfig } from './config.js';
import { formatInferenceError } from './http/errors.js';
import { registerModelRoutes } from './http/model-routes.js';
import { openInferenceDatabase } from './storage/open.js';

export async function buildInferenceApp(config: InferenceConfig, context: ServiceContext): Promise<FastifyInstance> {
  const database = await openInferenceDatabase(config.database ?? `sqlite:${join(context.dataDir, 'inference.db')}`);
  const app = await createHttpApp({
    service: 'inference',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatInferenceError,
  });
  app.addHook('onClose', () => database.close());
  registerModelRoutes(app, config);
  return app;
}
