import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTestDatabase,
  expectRidesOutOutage,
  observeOutage,
  postgresAvailable,
  rawHttp,
  rawRequest,
  startThrowawayPostgres,
  type TestDatabase,
  type ThrowawayPostgres,
  tagConnections,
  terminateBackends,
  testPgUrl,
} from '@atrium/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';

const runPostgres = await postgresAvailable();
const isOpenAiError = (body: unknown) => {
  const error = (body as { error?: Record<string, unknown> }).error;
  return typeof error?.message === 'string' && typeof error.type === 'string' && typeof error.code === 'string';
};
const chat = { model: METERED_MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };

/**
 * A key with a budget, of a resource with a concurrency limit: leases, slots and usage all live in the
 * database. (The shared tenant is awaited too: its seeding must not outlive the gateway's database.)
 */
async function meteredKey(gateway: MeteredGateway) {
  await gateway.newKey(undefined);
  return gateway.newKey(1_000_000, { limits: { concurrentRequests: 4 } });
}

describe.skipIf(!runPostgres)('inference when PostgreSQL closes its pooled connections', () => {
  let database: TestDatabase;
  let gateway: MeteredGateway | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(() => gateway?.close());
  afterAll(() => database.drop());

  it('keeps serving after pg_terminate_backend', async () => {
    const tagged = tagConnections(database.url);
    gateway = await startMeteredGateway(tagged.url);
    const key = await meteredKey(gateway);
    expect((await gateway.post('/v1/chat/completions', key.secret, chat)).status).toBe(200);
    expect(await terminateBackends(testPgUrl, tagged.applicationName)).toBeGreaterThan(0);
    await sleep(200);
    expect((await gateway.post('/v1/chat/completions', key.secret, chat)).status).toBe(200);
  });
});

describe('inference when PostgreSQL stops and starts again', () => {
  let cluster: ThrowawayPostgres;
  let gateway: MeteredGateway;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    gateway = await startMeteredGateway(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await cluster?.destroy();
  });

  it('answers 503 in its own shape during the outage and serves again without a restart', async () => {
    const key = await meteredKey(gateway);
    const observation = await observeOutage(cluster, (signal) =>
      fetch(`${gateway.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
        body: JSON.stringify(chat),
        signal,
      }),
    );
    expectRidesOutOutage(observation, isOpenAiError);
    // The background loops (usage flush, lease and slot sweeps) ran through the outage and are still working.
    expect((await gateway.post('/v1/chat/completions', key.secret, chat)).status).toBe(200);
    expect(await gateway.periodUsed(key.id)).toBeGreaterThan(0);
  });
});

describe('inference router and HTTP parser errors', () => {
  let gateway: MeteredGateway;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    gateway = await startMeteredGateway(database.url);
    await meteredKey(gateway);
  });
  afterAll(async () => {
    await gateway.close();
    await database.drop();
  });

  it.each([
    ['an over-long path segment', 414, rawRequest('POST', `/ui/keys/${'a'.repeat(501)}/revoke`)],
    ['bad percent-encoding', 400, rawRequest('POST', '/ui/keys/%ff%fe/revoke')],
    ['oversized headers', 431, rawRequest('GET', '/v1/models', { 'x-big': 'a'.repeat(20_000) })],
    ['malformed framing', 400, 'GET /v1/models HTTP/1.1\r\ncontent-length: abc\r\n\r\n'],
  ])('%s: %i in OpenAI shape', async (_name, status, request) => {
    const response = await rawHttp(gateway.base, [request]);
    expect(response.status).toBe(status);
    expect(isOpenAiError(JSON.parse(response.body))).toBe(true);
  });

  it.each(['//v1/models', '/%761/models', '/x/../v1/models'])('authenticates %s as /v1/models', async (path) => {
    const response = await rawHttp(gateway.base, [rawRequest('GET', path)]);
    expect(response.status).toBe(401);
    expect(isOpenAiError(JSON.parse(response.body))).toBe(true);
  });
});
