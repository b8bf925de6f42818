import { join } from 'node:path';
import { createHttpApp, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { BenchConfig } from './config.js';
import { formatBenchError } from './http/errors.js';
import { registerServerRoutes } from './http/server-routes.js';
import { openBenchDatabase } from './storage/open.js';

export async function buildBenchApp(config: BenchConfig, context: ServiceContext): Promise<FastifyInstance> {
  const database = await openBenchDatabase(config.database ?? `sqlite:${join(context.dataDir, 'bench.db')}`);
  const app = await createHttpApp({
    service: 'bench',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatBenchError,
    exposedHeaders: ['x-total-count'],
  });
  app.addHook('onClose', () => database.close());
  registerServerRoutes(app);
  return app;
}
