import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type CrossOriginPage, chromiumAvailable, launchChromium, serveCrossOriginPage } from '@atrium/core/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD, FIXTURES, getJson, type RunningApi, serveArchive } from './support/fixtures.js';

const LEGACY = `${FIXTURES}/export/migrate/export_0.4_simple.aiida`;
const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const REPLAY = new URL('./support/explorer-replay/', import.meta.url);

interface Call {
  n: number;
  method: 'GET' | 'POST';
  path: string;
  /** The QueryBuilder body of a POST, as sent. */
  body?: string;
  status: number;
  ok: boolean;
  read: string;
  contentType?: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: the API's answers, compared whole
  data?: any;
  error?: string;
}
interface Replay {
  calls: Call[];
  rows: { uuid: string; node_type: string }[];
  error?: string;
}

describe.skipIf(!chromiumAvailable)('aiida-explorer calls replayed in Chromium from another origin', () => {
  let browser: Browser;
  let page: CrossOriginPage;

  beforeAll(async () => {
    const file = (name: string) => readFileSync(new URL(name, REPLAY), 'utf8');
    page = await serveCrossOriginPage({
      '/': { contentType: 'text/html; charset=utf-8', body: file('index.html') },
      '/replay.js': { contentType: 'text/javascript; charset=utf-8', body: file('replay.js') },
    });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await page?.close();
  });

  /** Opens the replay page against `api` (…/api/v4): what it fetched, its node count and a screenshot. */
  async function replay(api: string): Promise<{ replay: Replay; count: string | null; png: Buffer }> {
    const tab = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    try {
      await tab.goto(`${page.origin}/?api_url=${encodeURIComponent(api)}`);
      await tab.locator('body[data-done]').waitFor({ timeout: 30_000 });
      const result = await tab.evaluate(() => (globalThis as unknown as { replay: Replay }).replay);
      const png = await tab.screenshot({ fullPage: true });
      return { replay: result, count: await tab.locator('#node-count').textContent(), png };
    } finally {
      await tab.close();
    }
  }

  it.each([
    ['current', ADD, 'provenance-explorer-current.png'],
    ['legacy 0.4', LEGACY, 'provenance-explorer-legacy.png'],
  ])(
    '%s archive: every call succeeds with what the API answers directly',
    async (_name, archive, screenshot) => {
      const api: RunningApi = await serveArchive(archive, 'sqlite');
      try {
        const { replay: result, count, png } = await replay(`${api.base}/api/v4`);
        expect(result.error).toBeUndefined();
        expect(result.calls.filter((c) => !c.ok)).toEqual([]);
        const numbers = new Set(result.calls.map((c) => c.n));
        for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13]) expect([n, numbers.has(n)]).toEqual([n, true]);

        const stats = (await getJson(`${api.base}/api/v4/nodes/statistics`)).body.data;
        expect(result.rows).toHaveLength(stats.total);
        expect(count).toBe(`${stats.total} nodes loaded`);
        const reads = result.calls.map((c) => c.read);
        expect(reads).toContain(`${stats.types['process.calculation.calcjob.CalcJobNode.']} calcjobs`);
        expect(reads).toContain('0 nodes after 5000');

        for (const call of result.calls) {
          const direct = await fetch(`${api.base}/api/v4${call.path}`, {
            method: call.method,
            ...(call.body !== undefined && { headers: { 'content-type': 'application/json' }, body: call.body }),
          });
          const text = await direct.text();
          const data = call.contentType?.startsWith('application/json') ? JSON.parse(text).data : text;
          expect([call.n, call.path, call.status, call.contentType, call.data]).toEqual([
            call.n,
            call.path,
            direct.status,
            direct.headers.get('content-type'),
            data,
          ]);
        }
        writeFileSync(`${SCREENSHOTS}${screenshot}`, png);
      } finally {
        await api.stop();
      }
    },
    120_000,
  );

  it('the same page behind a preflight without Access-Control-Allow-Headers: the browser never sends the POST, 0 nodes loaded', async () => {
    const api = await serveArchive(ADD, 'sqlite');
    const proxy = await preflightStripping(api.base);
    try {
      const { replay: result, count } = await replay(`${proxy.base}/api/v4`);
      const posts = result.calls.filter((c) => c.method === 'POST');
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.map((c) => [c.ok, c.error])).toEqual(posts.map(() => [false, 'TypeError: Failed to fetch']));
      expect(result.calls.filter((c) => c.method === 'GET').every((c) => c.ok)).toBe(true);
      expect(count).toBe('0 nodes loaded');
      expect(proxy.seen).toContainEqual(['OPTIONS', '/api/v4/querybuilder/', 'content-type']);
      expect(proxy.seen.filter(([method]) => method === 'POST')).toEqual([]);
    } finally {
      await proxy.close();
      await api.stop();
    }
  }, 120_000);
});

/**
 * A reverse proxy to `target` that drops Access-Control-Allow-Headers from every answer (the preflight as
 * Atrium answered it before), recording method, path and requested headers of what reaches it.
 */
async function preflightStripping(target: string) {
  const seen: [string, string, string | undefined][] = [];
  const server: Server = createServer((request, response) => {
    seen.push([request.method ?? '', request.url ?? '', request.headers['access-control-request-headers']]);
    const upstream = forward(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        const { 'access-control-allow-headers': _dropped, ...headers } = answer.headers;
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
