import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp, type ErrorFormatter } from '../src/index.js';
import { listen, rawHttp, rawRequest, silentLogger, testHttpConfig } from '../src/testing/index.js';

const formatError: ErrorFormatter = (problem, request) => ({
  statusCode: problem.status,
  body: { failure: { code: problem.code, message: problem.message, id: request.id } },
});

const shape = (code: string) => ({ failure: { code, message: expect.any(String), id: expect.any(String) } });

describe('createHttpApp under hostile clients', () => {
  let app: FastifyInstance;
  let base: string;
  beforeEach(async () => {
    app = await createHttpApp({
      service: 'demo',
      http: testHttpConfig({ requestTimeoutMs: 600, headersTimeoutMs: 400, maxConnections: 8 }),
      logger: silentLogger,
      accessLog: false,
      formatError,
    });
    app.get('/items/:id', async (request) => request.params);
    app.post('/items', async (request) => ({ got: (request.body as string).length }));
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.get('/stream', (_request, reply) => {
      let ticks = 0;
      const timer = setInterval(() => {
        reply.raw.write(`tick ${++ticks}\n`);
        if (ticks === 10) {
          clearInterval(timer);
          reply.raw.end();
        }
      }, 120);
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    });
    app.post('/slow-answer', async () => {
      await sleep(1200);
      return { done: true };
    });
    base = await listen(app);
  });
  afterEach(() => app.close());

  it('answers a slow body with 408 in the service shape after the request timeout', async () => {
    const head = rawRequest('POST', '/items', { 'content-type': 'text/plain', 'content-length': '1000' });
    const response = await rawHttp(base, [head, ...Array.from({ length: 40 }, () => 'x')], 100);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(shape('request_timeout'));
    expect(response.closedAfterMs).toBeLessThan(2000);
  });

  it('closes a slowloris connection that never finishes its headers', async () => {
    const lines = ['GET /healthz HTTP/1.1\r\nhost: x\r\n', ...Array.from({ length: 40 }, (_, i) => `x-${i}: y\r\n`)];
    const response = await rawHttp(base, lines, 100);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(shape('request_timeout'));
    expect(response.closedAfterMs).toBeLessThan(2000);
  });

  it('does not cut a response that outlasts the request timeout (streams, slow handlers)', async () => {
    const stream = await fetch(`${base}/stream`);
    expect(await stream.text()).toContain('tick 10');
    const slow = await fetch(`${base}/slow-answer`, { method: 'POST' });
    expect(await slow.json()).toEqual({ done: true });
  });

  it.each([
    ['oversized headers', 431, 'headers_too_large', rawRequest('GET', '/healthz', { 'x-big': 'a'.repeat(20_000) })],
    ['malformed framing', 400, 'bad_request', 'GET /healthz HTTP/1.1\r\ncontent-length: abc\r\n\r\n'],
    ['not HTTP at all', 400, 'bad_request', 'HELLO\r\n\r\n'],
    ['bad percent-encoding', 400, 'invalid_url', rawRequest('GET', '/items/%ff%fe')],
    ['over-long path segment', 414, 'uri_too_long', rawRequest('GET', `/items/${'a'.repeat(501)}`)],
  ])('%s: %i in the service shape', async (_name, status, code, request) => {
    const response = await rawHttp(base, [request]);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual(shape(code));
    expect(response.headers['x-request-id']).toBe(JSON.parse(response.body).failure.id);
  });

  it.each(['//healthz', '/%68ealthz', '/a/../healthz', '/./healthz', '/%2e%2e/healthz'])(
    'routes %s to /healthz',
    async (path) => {
      const response = await rawHttp(base, [rawRequest('GET', path)]);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ status: 'ok', service: 'demo' });
    },
  );

  it('keeps an encoded slash inside its segment', async () => {
    const response = await rawHttp(base, [rawRequest('GET', '/items/a%2F..%2Fb')]);
    expect(JSON.parse(response.body)).toEqual({ id: 'a/../b' });
  });

  it('sends no Server or X-Powered-By header', async () => {
    const response = await rawHttp(base, [rawRequest('GET', '/healthz')]);
    expect(response.headers.server).toBeUndefined();
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('closes connections beyond the cap and serves again once they are gone', async () => {
    const idle = await Promise.all(
      Array.from({ length: 8 }, () => {
        const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port) });
        return new Promise<typeof socket>((resolve) => socket.once('connect', () => resolve(socket)));
      }),
    );
    const refused = await rawHttp(base, [rawRequest('GET', '/healthz')]);
    expect(refused.status).toBe(0);
    for (const socket of idle) socket.destroy();
    await sleep(50);
    expect((await rawHttp(base, [rawRequest('GET', '/healthz')])).status).toBe(200);
  });
});
