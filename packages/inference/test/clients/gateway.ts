import { closeGracefully } from '@atrium/core';
import { createTestDatabase, listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../../src/index.js';
import { OVER_REPORT } from '../support/metering-upstream.js';
import { DAY, seedTenant } from '../support/tenancy.js';
import { type ScriptedUpstream, startScriptedUpstream } from './scripted-upstream.js';

/** The one served model: a vLLM-served coder with a large context, images, tools and embeddings. */
export const MODEL = 'acme/coder';
export const CONTEXT = 262_144;
export const MODALITIES = ['text', 'image'];
/** The daily budget of a key made spent. */
const SPENT_BUDGET = 100;

export interface ClientGateway {
  app: FastifyInstance;
  /** The gateway's origin, without `/v1`. */
  base: string;
  upstream: ScriptedUpstream;
  /** Every `/v1` request the gateway answered: its path, status and when it arrived (`performance.now()`). */
  answered: Array<{ path: string; status: number; at: number }>;
  /** The secret of a key without a budget, of a project with an active grant. */
  key: string;
  /** A fresh key whose daily budget is already spent. */
  spentKey(): Promise<string>;
  /** A key created while its project's grant was active; the grant ended yesterday. */
  keyPastGrant(): Promise<string>;
  close(): Promise<void>;
}

/** A real inference gateway on a fresh SQLite database, serving `MODEL` from a scripted upstream. */
export async function startClientGateway(): Promise<ClientGateway> {
  const upstream = await startScriptedUpstream();
  const database = await createTestDatabase('sqlite');
  const opened = await openInferenceDatabase(database.url);
  const config = inferenceConfigSchema.parse({
    port: 0,
    database: database.url,
    auth: { demo: false },
    models: [
      {
        id: MODEL,
        contextLength: CONTEXT,
        modalities: MODALITIES,
        capabilities: { embeddings: true },
        backend: { type: 'upstream', replicas: [upstream.origin] },
      },
    ],
  });
  const app = await buildInferenceApp(config, { logger: silentLogger, dataDir: '/nonexistent', accessLog: false });
  const answered: ClientGateway['answered'] = [];
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0] as string;
    if (path.startsWith('/v1/'))
      answered.push({ path, status: reply.statusCode, at: performance.now() - reply.elapsedTime });
  });
  const base = await listen(app);
  const tenant = await seedTenant(opened.db, {}, Date.now());
  let aliases = 0;
  const newKey = async (budgetTokens?: number) =>
    (
      await tenant.key(
        { alias: `k${++aliases}`, budgetTokens, resetPeriod: budgetTokens === undefined ? undefined : 'day' },
        [MODEL],
      )
    ).secret;
  return {
    app,
    base,
    upstream,
    answered,
    key: await newKey(),
    async spentKey() {
      const secret = await newKey(SPENT_BUDGET);
      // The gateway charges at most what a request reserved: small requests until the next one no longer fits.
      for (let spent = 0; spent < SPENT_BUDGET; spent++) {
        const answer = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
          body: JSON.stringify({ model: MODEL, max_tokens: 1, messages: [{ role: 'user', content: OVER_REPORT }] }),
        });
        await answer.arrayBuffer();
        if (answer.status === 429) return secret;
        if (answer.status !== 200) throw new Error(`spending the budget answered ${answer.status}`);
      }
      throw new Error('the budget was never spent');
    },
    async keyPastGrant() {
      const then = Date.now() - 366 * DAY;
      const expired = await seedTenant(opened.db, {}, then);
      return (await expired.key({ alias: 'past-grant' }, [MODEL], then)).secret;
    },
    async close() {
      await closeGracefully(app, 500);
      await opened.close();
      await upstream.close();
      await database.drop();
    },
  };
}
