import { closeGracefully, type Logger } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../../src/index.js';
import { findApiKey } from '../../src/storage/api-keys.js';
import { METERED_CONTEXT, type MeteringUpstream, startMeteringUpstream } from './metering-upstream.js';
import { seedTenant, type TenantOptions } from './tenancy.js';

/** The served model: 4,096 tokens of context (`METERED_CONTEXT`), images, embeddings, tools. */
export const METERED_MODEL = 'acme/metered';
export { METERED_CONTEXT };

export interface MeteredGateway {
  app: FastifyInstance;
  base: string;
  upstream: MeteringUpstream;
  /** A key allowed on the model: of a fresh tenant whose resource has `options`, or else of a shared one. */
  newKey(
    budgetTokens: number | undefined,
    options?: TenantOptions,
  ): Promise<{ id: string; secret: string; resourceId: string }>;
  /** The key's stored period use, once every lease has gone back to the database. */
  periodUsed(keyId: string): Promise<number | undefined>;
  /** A JSON POST with the key (as a bearer token, which both API shapes accept); a string is sent as it is. */
  post(path: string, secret: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

export interface MeteredGatewayOptions {
  logger?: Logger;
  /** Hosts whose http(s) media URLs are forwarded (`media.allowedHosts`). */
  allowedMediaHosts?: string[];
}

/** The gateway on database `url`, serving one model from a metering upstream. */
export async function startMeteredGateway(
  url: string,
  { logger = silentLogger, allowedMediaHosts = [] }: MeteredGatewayOptions = {},
): Promise<MeteredGateway> {
  const upstream = await startMeteringUpstream();
  const database = await openInferenceDatabase(url);
  const config = inferenceConfigSchema.parse({
    port: 0,
    database: url,
    auth: { demo: false },
    media: { allowedHosts: allowedMediaHosts },
    models: [
      {
        id: METERED_MODEL,
        contextLength: METERED_CONTEXT,
        modalities: ['image'],
        capabilities: { embeddings: true },
        backend: { type: 'upstream', replicas: [upstream.origin] },
      },
    ],
  });
  const app = await buildInferenceApp(config, { logger, dataDir: '/nonexistent', accessLog: false });
  const base = await listen(app);
  // Seeding hashes passwords (~0.1 s per account): keys without their own limits share one tenant.
  const shared = seedTenant(database.db, {}, Date.now());
  let keys = 0;
  return {
    app,
    base,
    upstream,
    async newKey(budgetTokens, options) {
      const tenant = options ? await seedTenant(database.db, options, Date.now()) : await shared;
      const { secret, key } = await tenant.key(
        { alias: `k${++keys}`, ...(budgetTokens === undefined ? {} : { budgetTokens, resetPeriod: 'week' as const }) },
        [METERED_MODEL],
        Date.now(),
      );
      return { id: key.id, secret, resourceId: tenant.resource.id };
    },
    async periodUsed(keyId) {
      await app.admission.drain();
      return (await findApiKey(database.db, keyId))?.period_used;
    },
    post: (path, secret, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async close() {
      await closeGracefully(app, 500);
      await database.close();
      await upstream.close();
    },
  };
}
