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
import { type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';

const runPostgres = await postgresAvailable();
const isAiidaError = (body: unknown) => typeof (body as { message?: unknown }).message === 'string';
const NODES = '/api/v4/nodes/page/1?perpage=5';

describe.skipIf(!runPostgres)('provenance over an AiiDA PostgreSQL source whose connections are closed', () => {
  let database: TestDatabase;
  let api: RunningApi | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(() => api?.stop());
  afterAll(() => database.drop());

  it('keeps serving after pg_terminate_backend', async () => {
    const tagged = tagConnections(database.url);
    api = await serveArchive(SIMPLE, 'postgres', tagged.url);
    expect((await fetch(`${api.base}${NODES}`)).status).toBe(200);
    expect(await terminateBackends(testPgUrl, tagged.applicationName)).toBeGreaterThan(0);
    await sleep(200);
    expect((await fetch(`${api.base}${NODES}`)).status).toBe(200);
  });
});

describe('provenance when the AiiDA PostgreSQL server stops and starts again', () => {
  let cluster: ThrowawayPostgres;
  let api: RunningApi;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    api = await serveArchive(SIMPLE, 'postgres', cluster.url);
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await cluster?.destroy();
  });

  it('answers 503 in its own shape during the outage and serves again without a restart', async () => {
    const observation = await observeOutage(cluster, (signal) => fetch(`${api.base}${NODES}`, { signal }));
    expectRidesOutOutage(observation, isAiidaError);
  });
});

describe('provenance router and HTTP parser errors', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await serveArchive(SIMPLE, 'sqlite');
  });
  afterAll(() => api.stop());

  it.each([
    ['an over-long path segment', 414, rawRequest('GET', `/api/v4/nodes/${'a'.repeat(501)}`)],
    ['bad percent-encoding', 400, rawRequest('GET', '/api/v4/nodes/%ff%fe')],
    ['oversized headers', 431, rawRequest('GET', '/api/v4/nodes/', { 'x-big': 'a'.repeat(20_000) })],
    ['malformed framing', 400, 'GET /api/v4/nodes/ HTTP/1.1\r\ncontent-length: abc\r\n\r\n'],
  ])('%s: %i in AiiDA shape', async (_name, status, request) => {
    const response = await rawHttp(api.base, [request]);
    expect(response.status).toBe(status);
    expect(isAiidaError(JSON.parse(response.body))).toBe(true);
  });

  it.each(['//api/v4/nodes/', '/api/v4//nodes/', '/api/%764/nodes/', '/api/v4/x/../nodes/'])(
    'serves %s as /api/v4/nodes/',
    async (path) => {
      const response = await rawHttp(api.base, [rawRequest('GET', path)]);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body).data.nodes.length).toBeGreaterThan(0);
    },
  );
});
