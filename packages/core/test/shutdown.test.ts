import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { closeGracefully, createHttpApp, type ErrorFormatter } from '../src/index.js';
import { listen, silentLogger, testHttpConfig } from '../src/testing/index.js';

const formatError: ErrorFormatter = (problem) => ({ statusCode: problem.status, body: { message: problem.message } });

async function appWithSlowRoute(delayMs: number) {
  const app = await createHttpApp({
    service: 'demo',
    http: testHttpConfig({ bodyLimit: 1024 }),
    logger: silentLogger,
    accessLog: false,
    formatError,
  });
  const events: string[] = [];
  let started = false;
  app.get('/slow', async () => {
    started = true;
    await sleep(delayMs);
    events.push('handler done');
    return { done: true };
  });
  app.addHook('onClose', async () => {
    events.push('database closed');
  });
  // Waits until the slow request is in its handler (a loaded machine can take longer than any fixed sleep).
  const inHandler = () => vi.waitUntil(() => started, { timeout: 5000 });
  return { app, events, inHandler, base: await listen(app) };
}

describe('closeGracefully', () => {
  it('lets in-flight requests finish, refuses new ones, then closes the database', async () => {
    const { app, events, inHandler, base } = await appWithSlowRoute(300);
    const inFlight = fetch(`${base}/slow`);
    await inHandler();
    const closing = closeGracefully(app, 5000);
    await vi.waitUntil(() => !app.server.listening, { timeout: 5000 });
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closing;
    expect(events).toEqual(['handler done', 'database closed']);
  });

  it('stops waiting at the deadline', async () => {
    const { app, events, inHandler, base } = await appWithSlowRoute(5000);
    const inFlight = fetch(`${base}/slow`).catch((error: Error) => error);
    await inHandler();
    const started = Date.now();
    await closeGracefully(app, 200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await inFlight).toBeInstanceOf(Error);
    expect(events).toEqual(['database closed']);
  });
});
