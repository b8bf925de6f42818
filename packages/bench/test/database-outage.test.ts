import { setTimeout as sleep } from 'node:timers/promises';
import {
  countBackends,
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
import { type Bench, seedProject, startBench } from './harness.js';

const runPostgres = await postgresAvailable();
const isBenchError = (body: unknown) => {
  const { request_id, error_code, message } = body as Record<string, unknown>;
  return typeof request_id === 'string' && typeof error_code === 'string' && typeof message === 'string';
};

describe.skipIf(!runPostgres)('bench when PostgreSQL closes its pooled connections', () => {
  let database: TestDatabase;
  let bench: Bench | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(() => bench?.close());
  afterAll(() => database.drop());

  it('keeps serving after pg_terminate_backend, perf worker threads too', async () => {
    const tagged = tagConnections(database.url);
    bench = await startBench(tagged.url);
    await seedProject(bench);
    const none = '00000000-0000-4000-8000-000000000000';
    const perf = `/v0/projects/the-computer/perf?branches=${none}&testbeds=${none}&benchmarks=${none}&measures=${none}`;
    // Perf threads start with the first perf query: the connections it adds are the thread's own.
    const before = await countBackends(testPgUrl, tagged.applicationName);
    expect((await bench.call('GET', perf)).status).toBe(200);
    const withThread = await countBackends(testPgUrl, tagged.applicationName);
    expect(withThread).toBeGreaterThan(before);
    expect(await terminateBackends(testPgUrl, tagged.applicationName)).toBe(withThread);
    await sleep(200);
    expect((await bench.call('GET', '/v0/projects/the-computer')).status).toBe(200);
    expect((await bench.call('GET', '/v0/projects')).status).toBe(200);
    expect((await bench.call('GET', perf)).status).toBe(200);
  });
});

describe('bench when PostgreSQL stops and starts again', () => {
  let cluster: ThrowawayPostgres;
  let bench: Bench;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    bench = await startBench(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await bench?.close();
    await cluster?.destroy();
  });

  it('answers 503 in its own shape during the outage and serves again without a restart', async () => {
    const observation = await observeOutage(cluster, (signal) => fetch(`${bench.base}/v0/projects`, { signal }));
    expectRidesOutOutage(observation, isBenchError);
  });
});

describe('bench router and HTTP parser errors', () => {
  let bench: Bench;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    bench = await startBench(database.url);
  });
  afterAll(async () => {
    await bench.close();
    await database.drop();
  });

  it.each([
    ['an over-long path segment', 414, 'uri_too_long', rawRequest('GET', `/v0/projects/${'a'.repeat(501)}`)],
    ['bad percent-encoding', 400, 'invalid_url', rawRequest('GET', '/v0/projects/%ff%fe')],
    ['oversized headers', 431, 'headers_too_large', rawRequest('GET', '/v0/projects', { 'x-big': 'a'.repeat(20_000) })],
    ['malformed framing', 400, 'bad_request', 'GET /v0/projects HTTP/1.1\r\ncontent-length: abc\r\n\r\n'],
  ])('%s: %i in Bencher shape', async (_name, status, code, request) => {
    const response = await rawHttp(bench.base, [request]);
    expect(response.status).toBe(status);
    const body = JSON.parse(response.body);
    expect(isBenchError(body)).toBe(true);
    expect(body.error_code).toBe(code);
  });
});
