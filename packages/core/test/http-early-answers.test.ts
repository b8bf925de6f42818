import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp, type ErrorFormatter, MAX_JSON_NESTING, SMALL_BODY_LIMIT } from '../src/index.js';
import {
  listen,
  NO_STALL,
  nestedJson,
  postBody,
  rawHttp,
  rawRequest,
  silentLogger,
  testHttpConfig,
  whileProbingHealth,
} from '../src/testing/index.js';

const formatError: ErrorFormatter = (problem, request) => ({
  statusCode: problem.status,
  body: { failure: { code: problem.code, message: problem.message, id: request.id } },
});

const THIRTY_MB = 30 * 1024 * 1024;
// Made before the clock starts: the test's own client shares the server's event loop.
const thirtyMegabytes = nestedJson(THIRTY_MB);

describe('createHttpApp: no body stalls the process (H2)', () => {
  let app: FastifyInstance;
  let base: string;
  beforeEach(async () => {
    app = await createHttpApp({
      service: 'demo',
      // Inference's limit for its uploads.
      http: testHttpConfig({ bodyLimit: 32 * 1024 * 1024, requestTimeoutMs: 5000 }),
      logger: silentLogger,
      accessLog: false,
      formatError,
      largeBodyRoutes: /^\/uploads$/,
    });
    app.post('/uploads', async (request) => ({
      kind: Array.isArray(request.body) ? 'array' : typeof request.body,
    }));
    app.post('/settings', async (request) => ({ kind: typeof request.body }));
    base = await listen(app);
  });
  afterEach(() => app.close());

  it('answers an unknown route before reading its 30 MB nested body, /healthz answering meanwhile', async () => {
    const { result, worstHealthzMs } = await whileProbingHealth(base, () =>
      postBody(base, '/no-such-route', thirtyMegabytes),
    );
    expect(result.status).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      failure: { code: 'not_found', message: 'no route for POST /no-such-route', id: expect.any(String) },
    });
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it('answers an unknown route whose body is over bodyLimit at once, and closes without reading it', async () => {
    const head = rawRequest('POST', '/no-such-route', {
      'content-type': 'application/json',
      'content-length': String(64 * 1024 * 1024),
    });
    const started = performance.now();
    const response = await rawHttp(base, [head, '[[[[']);
    expect(response.status).toBe(404);
    expect(response.headers.connection).toBe('close');
    expect(performance.now() - started).toBeLessThan(NO_STALL.answerMs);
  });

  const post = (path: string, body: string | Buffer, close = false) =>
    Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${
          close ? 'connection: close\r\n' : ''
        }\r\n`,
      ),
      Buffer.from(body),
    ]);

  it.each([
    ['a small body', Buffer.from('{"a":1}')],
    ['a 30 MB nested body', thirtyMegabytes],
  ])('throws away %s sent to an unknown route and serves the next request on the connection', async (_name, body) => {
    const response = await rawHttp(base, [post('/no-such-route', body), post('/settings', '{}', true)]);
    expect(response.status).toBe(404);
    expect(response.body).toContain('no route for POST /no-such-route');
    expect(response.body).toContain('{"kind":"object"}');
    expect(response.closedAfterMs).toBeLessThan(NO_STALL.answerMs);
  });

  it('cuts a chunked body to an unknown route at bodyLimit', async () => {
    const mebibyte = Buffer.alloc(1024 * 1024, '[');
    const chunk = Buffer.concat([Buffer.from('100000\r\n'), mebibyte, Buffer.from('\r\n')]);
    const head = rawRequest('POST', '/no-such-route', {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    }).replace('connection: close\r\n', '');
    const response = await rawHttp(base, [
      head,
      ...Array.from({ length: 40 }, () => chunk),
      '0\r\n\r\n',
      post('/settings', '{}', true),
    ]);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('{"kind":"object"}');
  });

  it(`refuses a 30 MB body nested past ${MAX_JSON_NESTING} levels on a route that takes it, before parsing`, async () => {
    const { result, worstHealthzMs } = await whileProbingHealth(base, () =>
      postBody(base, '/uploads', thirtyMegabytes),
    );
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toEqual({
      failure: {
        code: 'invalid_json',
        message: `request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels`,
        id: expect.any(String),
      },
    });
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it.each([
    ['at the bound', `${'['.repeat(MAX_JSON_NESTING)}${']'.repeat(MAX_JSON_NESTING)}`, 200],
    ['one level past it', `${'['.repeat(MAX_JSON_NESTING + 1)}${']'.repeat(MAX_JSON_NESTING + 1)}`, 400],
    ['objects past it', `${'{"a":'.repeat(MAX_JSON_NESTING + 1)}0${'}'.repeat(MAX_JSON_NESTING + 1)}`, 400],
    ['brackets inside a string', `["${'['.repeat(10_000)}\\"${'{'.repeat(10_000)}"]`, 200],
  ])('JSON nested %s: %i', async (_name, text, status) => {
    expect((await postBody(base, '/uploads', Buffer.from(text))).status).toBe(status);
  });

  it('still refuses __proto__ keys and empty bodies (Fastify parser behind the bound)', async () => {
    const poisoned = await postBody(base, '/uploads', Buffer.from('{"__proto__":{"admin":true}}'));
    expect(poisoned.status).toBe(400);
    expect((await postBody(base, '/uploads', Buffer.alloc(0))).status).toBe(400);
  });

  it(`takes at most ${SMALL_BODY_LIMIT / 1024} KiB outside the large-body routes`, async () => {
    const body = Buffer.from(JSON.stringify({ text: 'x'.repeat(SMALL_BODY_LIMIT) }));
    const refused = await postBody(base, '/settings', body);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).failure.code).toBe('body_too_large');
    expect((await postBody(base, '/uploads', body)).status).toBe(200);
  });
});
