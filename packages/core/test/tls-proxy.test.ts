import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../src/index.js';
import { listen, silentLogger, testHttpConfig } from '../src/testing/index.js';

/** An app that answers the client address it sees. */
async function appTrusting(trustedProxies: string[]): Promise<FastifyInstance> {
  const app = await createHttpApp({
    service: 'demo',
    http: testHttpConfig({ trustedProxies }),
    logger: silentLogger,
    accessLog: false,
    formatError: (problem) => ({ statusCode: problem.status, body: { error: problem.code } }),
  });
  app.get('/ip', (request) => ({ ip: request.ip }));
  return app;
}

describe('behind a reverse proxy that terminates TLS: trustedProxies', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  const seen = async (trustedProxies: string[]) => {
    app = await appTrusting(trustedProxies);
    const base = await listen(app);
    const response = await fetch(`${base}/ip`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    return ((await response.json()) as { ip: string }).ip;
  };

  it('takes the client address from X-Forwarded-For when the connection comes from a trusted proxy', async () => {
    expect(await seen(['127.0.0.1'])).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from anyone else (a client cannot pick its address for the sign-in throttle)', async () => {
    expect(await seen([])).toBe('127.0.0.1');
    await app?.close();
    expect(await seen(['10.0.0.0/8'])).toBe('127.0.0.1');
  });
});
