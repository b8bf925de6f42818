import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MODULES } from '../src/console/assets.js';
import { startConsoleBench } from './console-support.js';
import { type Bench, seedProject } from './harness.js';

/** Gzipped bytes the perf page loads: every client module, uPlot and its stylesheet. */
const PERF_PAGE_ASSETS = [...CLIENT_MODULES, 'uPlot.iife.min.js', 'uPlot.min.css'];

describe('bench console over HTTP', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startConsoleBench();
    const { org } = await seedProject(bench);
    await bench.json('POST', `/v0/organizations/${org.slug}/projects`, {
      token: bench.muriel,
      body: { name: 'Secret', slug: 'secret', visibility: 'private' },
    });
  });
  afterAll(() => bench.close());

  const page = async (path: string) => {
    const response = await bench.call('GET', path);
    return { response, text: await response.text() };
  };

  it('answers the console URL: by default the bench service itself', async () => {
    expect(await bench.json('GET', '/v0/server/config/console')).toEqual({ url: bench.base });
  });

  it.each([
    '/perf',
    '/perf/the-computer/reports/0d3c4a53-7a5b-4b8e-9c1f-3f4e5d6c7b8a',
    '/perf/the-computer/plots',
    '/auth/signup?claim=x',
    '/auth/login',
    '/auth/confirm?token=abc',
    '/console',
    '/console/projects/the-computer/alerts',
  ])('serves %s as the console shell under a strict CSP', async (path) => {
    const { response, text } = await page(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(text).toContain('<script type="module" src="/console/assets/app.js">');
    expect(text).not.toMatch(/https?:\/\/(?!localhost)/);
  });

  it.each([
    ['/console/organizations', 200],
    ['/console/organizations/acme/members', 200],
    ['/console/users/muriel/tokens?x=1', 200],
    ['/console/onboard/token', 404],
    ['/console/organizations/acme/nothing', 404],
    ['/console/users/muriel/nothing', 404],
    ['/console/projects', 404],
  ])(
    'answers %s with the console shell and status %i (a page the console does not have is an honest 404)',
    async (path, status) => {
      const { response, text } = await page(path);
      expect(response.status).toBe(status);
      expect(text).toContain('<script type="module" src="/console/assets/app.js">');
    },
  );

  it('titles a public project page by its name; a private project looks exactly like a missing one', async () => {
    const open = await page('/perf/the-computer?branches=a&testbeds=b&benchmarks=c&measures=d');
    expect(open.text).toContain('<title>📈 The Computer · Atrium bench</title>');
    expect(open.text).toContain('content="/v0/projects/the-computer/perf/img?branches=a&amp;testbeds=b');
    const secret = await page('/perf/secret');
    const missing = await page('/perf/no-such-project');
    expect(secret.response.status).toBe(missing.response.status);
    expect(secret.text).toBe(missing.text);
    expect(secret.text).toContain('<title>Project Not Found');
  });

  it('lets other sites frame the embeddable plot of a public project only', async () => {
    const embed = await page('/perf/the-computer/embed?branches=a&testbeds=b&benchmarks=c&measures=d');
    expect(embed.response.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(embed.text).toContain('<title>📈 The Computer · Atrium bench</title>');
    expect(embed.text).toContain('header,.skip{display:none}');
    const perf = await page('/perf/the-computer');
    expect(perf.response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const secret = await page('/perf/secret/embed');
    expect(secret.response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(secret.text).toContain('<title>Project Not Found');
  });

  it('serves the client modules and uPlot gzipped, under 150 KB for the perf page, and nothing else', async () => {
    let gzipped = 0;
    for (const name of PERF_PAGE_ASSETS) {
      const response = await fetch(`${bench.base}/console/assets/${name}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status).toBe(200);
      gzipped += Number(response.headers.get('content-length'));
    }
    expect(gzipped).toBeGreaterThan(20_000);
    expect(gzipped).toBeLessThan(150 * 1024);
    const plot = await fetch(`${bench.base}/console/assets/plot.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(plot.headers.get('content-encoding')).toBe('gzip');
    // Compiled by tsc from plot.ts: plain JavaScript importing the shared units module.
    const source = await plot.text();
    expect(source).toContain('new UPlot(');
    expect(source).toContain("from './units.js';");
    expect(source).not.toMatch(/: JsonPerf|import type/);
    expect((await bench.call('GET', '/console/assets/units.js')).status).toBe(200);
    expect((await bench.call('GET', '/console/assets/..%2Fapp.ts')).status).toBe(404);
    expect((await bench.call('GET', '/console/assets/uPlot.cjs.js')).status).toBe(404);
  });
});
