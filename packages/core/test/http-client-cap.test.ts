import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpConfig } from '../src/config/fields.js';
import { createHttpApp, type ErrorFormatter } from '../src/index.js';
import { listen, rawHttp, rawRequest, silentLogger, testHttpConfig, until } from '../src/testing/index.js';

const formatError: ErrorFormatter = (problem, request) => ({
  statusCode: problem.status,
  body: { failure: { code: problem.code, message: problem.message, id: request.id } },
});

/** Idle connections from `localAddress` (any of 127/8 is loopback on Linux), and how many the server left open. */
class Flood {
  private readonly sockets: Socket[] = [];
  private closed = 0;
  private settled = 0;

  constructor(base: string, from: string, count: number) {
    const port = Number(new URL(base).port);
    for (let i = 0; i < count; i++) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: from });
      socket.on('error', () => undefined);
      socket.once('connect', () => this.settled++);
      socket.once('close', () => this.closed++);
      this.sockets.push(socket);
    }
  }

  /** Waits until every connection was accepted and the server has closed the ones it refuses (no more for 200 ms). */
  async open(): Promise<number> {
    await until(() => this.settled + this.closed >= this.sockets.length, 10_000, 'every flood connection settled');
    let last = -1;
    await until(
      async () => {
        const now = this.closed;
        await new Promise((resolve) => setTimeout(resolve, 200));
        const stable = now === this.closed && now === last;
        last = now;
        return stable;
      },
      10_000,
      'the server closing refused connections',
    );
    return this.sockets.length - this.closed;
  }

  end(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}

describe('createHttpApp: one client cannot take every connection (M5)', () => {
  let app: FastifyInstance | undefined;
  const floods: Flood[] = [];
  afterEach(async () => {
    for (const flood of floods.splice(0)) flood.end();
    await app?.close();
    app = undefined;
  });

  async function start(http: Partial<HttpConfig>): Promise<string> {
    app = await createHttpApp({
      service: 'demo',
      http: testHttpConfig(http),
      logger: silentLogger,
      accessLog: false,
      formatError,
    });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/held', async () => {
      await held;
      return { released: true };
    });
    app.get('/release', async () => {
      release();
      return {};
    });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    return listen(app);
  }

  const flood = (base: string, from: string, count: number) => {
    const f = new Flood(base, from, count);
    floods.push(f);
    return f;
  };

  it('keeps /healthz answering while one address opens more connections than the server takes', async () => {
    const base = await start({ maxConnections: 64, maxConnectionsPerAddress: 8 });
    const open = await flood(base, '127.0.0.2', 200).open();
    const probe = await rawHttp(base, [rawRequest('GET', '/healthz')]);
    expect(probe.status).toBe(200);
    expect(JSON.parse(probe.body)).toEqual({ status: 'ok', service: 'demo' });
    expect(open).toBe(8);
  });

  it('counts each address apart, and maxConnections still bounds them all', async () => {
    const base = await start({ maxConnections: 20, maxConnectionsPerAddress: 8 });
    const open = await Promise.all(['127.0.0.2', '127.0.0.3'].map((from) => flood(base, from, 30).open()));
    expect(open).toEqual([8, 8]);
    // 4 left overall: the third address gets them, not its 8.
    expect(await flood(base, '127.0.0.4', 30).open()).toBe(4);
    expect((await rawHttp(base, [rawRequest('GET', '/healthz')])).status).toBe(0);
  });

  it('frees an address once its connections close', async () => {
    const base = await start({ maxConnectionsPerAddress: 4 });
    const first = flood(base, '127.0.0.2', 10);
    expect(await first.open()).toBe(4);
    first.end();
    const connections = () =>
      new Promise<number>((resolve) => app?.server.getConnections((_error, count) => resolve(count)));
    await until(async () => (await connections()) === 0, 5000, 'the server seeing the connections close');
    expect(await flood(base, '127.0.0.2', 10).open()).toBe(4);
  });

  describe('behind a trusted proxy', () => {
    const from = (base: string, client: string, path: string) =>
      rawHttp(base, [rawRequest('GET', path, { 'x-forwarded-for': client })]);

    it('caps requests under way per X-Forwarded-For client with 429, not the proxy itself', async () => {
      const base = await start({ trustedProxies: ['127.0.0.1'], maxConnectionsPerAddress: 2 });
      const held = [from(base, '203.0.113.7', '/held'), from(base, '203.0.113.7', '/held')];
      const other = [from(base, '203.0.113.8', '/held'), from(base, '203.0.113.8', '/held')];
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await from(base, '203.0.113.7', '/ip');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.body)).toEqual({
        failure: {
          code: 'too_many_connections',
          message: 'too many requests under way from this client address',
          id: expect.any(String),
        },
      });
      expect((await from(base, '203.0.113.7', '/healthz')).status).toBe(200);
      expect((await from(base, '203.0.113.9', '/ip')).body).toBe('{"ip":"203.0.113.9"}');
      expect((await from(base, '203.0.113.9', '/release')).status).toBe(200);
      expect((await Promise.all([...held, ...other])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect((await from(base, '203.0.113.7', '/ip')).status).toBe(200);
    });

    it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
      const base = await start({ trustedProxies: ['10.0.0.0/8'], maxConnectionsPerAddress: 2 });
      expect(await flood(base, '127.0.0.1', 2).open()).toBe(2);
      expect((await from(base, '203.0.113.9', '/ip')).status).toBe(0);
    });
  });
});
