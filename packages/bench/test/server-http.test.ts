import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCHER_API_VERSION, benchConfigSchema, buildBenchApp } from '../src/index.js';

describe('bench server routes', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-'));
    app = await buildBenchApp(benchConfigSchema.parse({ port: 0, consoleUrl: 'https://console.example/' }), {
      logger: silentLogger,
      dataDir,
      accessLog: false,
    });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('GET /v0/server/version answers the Bencher API version', async () => {
    const response = await fetch(`${base}/v0/server/version`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: BENCHER_API_VERSION });
  });

  it('GET / answers JSON null to API clients and sends a browser to the console; /favicon.ico is an icon', async () => {
    const api = await fetch(`${base}/`);
    expect([api.status, api.headers.get('content-type'), await api.text()]).toEqual([
      200,
      'application/json; charset=utf-8',
      'null',
    ]);
    const browser = await fetch(`${base}/`, { headers: { accept: 'text/html,*/*' }, redirect: 'manual' });
    expect([browser.status, browser.headers.get('location')]).toEqual([302, '/console']);
    const icon = await fetch(`${base}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await icon.text()).toMatch(/^<svg [^>]*>.*<\/svg>$/);
  });

  it('GET /v0/server/config/console answers the console URL', async () => {
    expect(await (await fetch(`${base}/v0/server/config/console`)).json()).toEqual({ url: 'https://console.example' });
  });

  it('GET /v0/server/spec describes the routes from their own schemas', async () => {
    const spec = (await (await fetch(`${base}/v0/server/spec`)).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[]; requestBody?: unknown }>>;
    };
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe(BENCHER_API_VERSION);
    const reports = spec.paths['/v0/projects/{project}/reports'];
    expect(reports?.post?.requestBody).toBeDefined();
    expect(reports?.get?.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['project', 'per_page', 'branch', 'expand']),
    );
    expect(spec.paths['/v0/projects/{project}/perf']?.get).toBeDefined();
    expect(spec.paths['/v0/server/spec']?.get).toBeDefined();
    expect(spec.paths['/healthz']).toBeUndefined();
  });

  it('answers errors in Bencher form with CORS headers', async () => {
    const response = await fetch(`${base}/v0/nope`, { headers: { origin: 'https://console.example' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      request_id: response.headers.get('x-request-id'),
      error_code: 'not_found',
      message: 'no route for GET /v0/nope',
    });
  });

  it('exposes X-Total-Count to browsers', async () => {
    const response = await fetch(`${base}/v0/projects`, { headers: { origin: 'https://console.example' } });
    expect(response.headers.get('x-total-count')).toBe('0');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-total-count');
  });
});
