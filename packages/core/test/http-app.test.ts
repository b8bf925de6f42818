import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpApp, type ErrorFormatter, HttpError } from '../src/index.js';
import { listen, silentLogger, testHttpConfig } from '../src/testing/index.js';

const formatError: ErrorFormatter = (problem, request) => ({
  statusCode: problem.status,
  body: { failure: { code: problem.code, message: problem.message, param: problem.param ?? null, id: request.id } },
});

async function buildApp(): Promise<FastifyInstance> {
  const app = await createHttpApp({
    service: 'demo',
    http: testHttpConfig({ bodyLimit: 1024 }),
    logger: silentLogger,
    accessLog: false,
    formatError,
    exposedHeaders: ['x-total-count'],
  });
  app.post(
    '/items',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 20 }, count: { type: 'integer' } },
        },
      },
    },
    async (request, reply) => reply.code(201).send(request.body),
  );
  app.get('/teapot', async () => {
    throw new HttpError(418, 'teapot', 'short and stout', 'query.pot');
  });
  app.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  app.get(
    '/items/:id',
    { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } },
    async (r) => r.params,
  );
  return app;
}

describe('createHttpApp', () => {
  let app: FastifyInstance;
  let base: string;
  beforeEach(async () => {
    app = await buildApp();
    base = await listen(app);
  });
  afterEach(() => app.close());

  const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${base}/items`, { method: 'POST', headers, body });

  it('answers /healthz and counts requests in /metrics', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', service: 'demo' });
    await fetch(`${base}/nowhere`);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain(
      'atrium_http_requests_total{service="demo",method="GET",route="/healthz",status="200"} 1',
    );
    expect(metrics).toContain('route="(unmatched)",status="404"} 1');
    expect(metrics).toMatch(/atrium_http_request_duration_seconds_bucket\{.*route="\/healthz".*le="\+Inf"\} 1/);
  });

  it('gives every response a request id, reusing a plain one from the caller', async () => {
    const fresh = await fetch(`${base}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const reused = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'trace-42' } });
    expect(reused.headers.get('x-request-id')).toBe('trace-42');
    const hostile = await fetch(`${base}/healthz`, { headers: { 'x-request-id': '<script>alert(1)</script>' } });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends CORS headers, also on errors and pre-flights', async () => {
    const error = await fetch(`${base}/teapot`, { headers: { origin: 'https://example.org' } });
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
    expect(error.headers.get('access-control-expose-headers')).toBe('x-request-id, x-total-count');
    const preflight = await fetch(`${base}/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it.each([
    ['malformed JSON', '{"name": "a",', undefined, 400, 'invalid_json', undefined],
    ['an empty JSON body', '', undefined, 400, 'invalid_json', undefined],
    ['an unknown field', '{"name":"a","colour":"red"}', undefined, 400, 'invalid_request', 'body.colour'],
    ['a missing field', '{}', undefined, 400, 'invalid_request', 'body.name'],
    ['a string where an integer belongs', '{"name":"a","count":"3"}', undefined, 400, 'invalid_request', 'body.count'],
    ['a body over the limit', JSON.stringify({ name: 'x'.repeat(2000) }), undefined, 413, 'body_too_large', undefined],
    [
      'an unsupported content type',
      'name=a',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      'unsupported_media_type',
      undefined,
    ],
  ])('rejects %s in the service error format', async (_name, body, headers, status, code, param) => {
    const response = await post(body, headers);
    expect(response.status).toBe(status);
    const json = (await response.json()) as { failure: { code: string; param: string | null; id: string } };
    expect(json.failure.code).toBe(code);
    if (param) expect(json.failure.param).toBe(param);
    expect(json.failure.id).toBe(response.headers.get('x-request-id'));
  });

  it('accepts a valid body', async () => {
    const response = await post('{"name":"a","count":3}');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: 'a', count: 3 });
  });

  it('coerces path parameters but rejects ones of the wrong shape', async () => {
    expect(await (await fetch(`${base}/items/12`)).json()).toEqual({ id: 12 });
    const bad = await fetch(`${base}/items/12abc`);
    expect(bad.status).toBe(400);
  });

  it('passes HttpError status, code and param through', async () => {
    const response = await fetch(`${base}/teapot`);
    expect(response.status).toBe(418);
    expect(await response.json()).toMatchObject({
      failure: { code: 'teapot', message: 'short and stout', param: 'query.pot' },
    });
  });

  it('hides the message of unexpected errors', async () => {
    const response = await fetch(`${base}/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toMatchObject({ failure: { code: 'internal_error', message: 'internal server error' } });
  });

  it('answers unknown routes with 404 in the service format', async () => {
    const response = await fetch(`${base}/no/such/route?x=1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      failure: { code: 'not_found', message: 'no route for GET /no/such/route' },
    });
  });
});
