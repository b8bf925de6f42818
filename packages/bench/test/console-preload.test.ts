import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConsole, signedIn, startConsoleBench } from './console-support.js';
import type { Bench, Json } from './harness.js';

/** The perf page's early loads: the client modules side by side, and a public view's data with them. */
describe('bench console preloads', () => {
  let bench: Bench;
  let view: URLSearchParams;
  let browser: Browser | undefined;

  beforeAll(async () => {
    bench = await startConsoleBench();
    await seedConsole(bench);
    const uuids = async (plural: string) =>
      ((await bench.json('GET', `/v0/projects/the-computer/${plural}`)) as Json[]).map((row) => row.uuid).join(',');
    view = new URLSearchParams({
      branches: await uuids('branches'),
      testbeds: await uuids('testbeds'),
      benchmarks: await uuids('benchmarks'),
      measures: await uuids('measures'),
      start_time: String(Date.UTC(2026, 0, 1)),
      x_axis: 'version',
    });
    if (chromiumAvailable) browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bench?.close();
  });

  const shell = async (path: string) => (await bench.call('GET', path)).text();
  const preloads = (text: string) =>
    [...text.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) =>
      (m[1] as string).replaceAll('&amp;', '&'),
    );

  it('preloads every module app.js imports statically, and none it imports on demand', async () => {
    const text = await shell('/console');
    const modules = [...text.matchAll(/<link rel="modulepreload" href="\/console\/assets\/([\w.-]+)">/g)].map(
      (m) => m[1],
    );
    expect(modules).toEqual(expect.arrayContaining(['app.js', 'api.js', 'dom.js', 'perf.js', 'plot.js']));
    expect(modules).not.toContain('thresholds.js');
    expect(modules).not.toContain('uPlot.iife.min.js');
    expect(new Set(modules).size).toBe(modules.length);
  });

  it('preloads the perf answer of a public view, the way the client asks for it, and nothing else', async () => {
    const [data] = preloads(await shell(`/perf/the-computer?${view}&report=x`));
    const perf = new URLSearchParams(view);
    perf.delete('x_axis');
    expect(data).toBe(`/v0/projects/the-computer/perf?${perf}`);
    expect((await bench.call('GET', data as string)).status).toBe(200);
    const partial = new URLSearchParams(view);
    partial.delete('measures');
    expect(preloads(await shell(`/perf/the-computer?${partial}`))).toEqual([]);
    expect(preloads(await shell(`/perf/secret?${view}`))).toEqual([]);
    expect(preloads(await shell(`/console/projects/the-computer/perf?${view}`))).toEqual([]);
  });

  it.skipIf(!chromiumAvailable)(
    'draws a public view from the preloaded answer, for an anonymous visitor and a signed-in one alike',
    async () => {
      const contexts = [await (browser as Browser).newContext(), await signedIn(browser as Browser, bench)];
      for (const context of contexts) {
        const page = await context.newPage();
        const warnings: string[] = [];
        page.on('console', (message) => {
          if (message.text().includes('preload')) warnings.push(message.text());
        });
        await page.goto(`${bench.base}/perf/the-computer?${view}`);
        await page.waitForSelector('[data-testid="plot"][data-points] canvas');
        expect(Number(await page.getAttribute('[data-testid="plot"]', 'data-points'))).toBe(62);
        const asked = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => new URL(entry.name).pathname.endsWith('/perf'))
            .map((entry) => entry.name),
        );
        expect(asked).toHaveLength(1);
        expect(await page.evaluate(() => performance.getEntriesByName('atrium:first-plot').length)).toBe(1);
        expect(warnings).toEqual([]);
        await context.close();
      }
    },
    60_000,
  );
});
