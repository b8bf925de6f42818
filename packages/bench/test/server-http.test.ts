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
    app = await buildBenchApp(benchConfigSchema.parse({ port: 0 }), {
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
});
