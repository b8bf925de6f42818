import { fileURLToPath } from 'node:url';
import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/** Latency around `level` with a little deterministic noise (±2 %). */
const around = (level: number, i: number) => level * (1 + (((i * 7) % 5) - 2) / 100);

describe.skipIf(!chromiumAvailable)('bench console shows change points in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  describeEachDialect('perf plot and alert page', ({ url }) => {
    let bench: Bench;
    let alert: Json;
    beforeEach(async () => {
      bench = await startBench(url());
      await seedProject(bench);
      alert = undefined;
      const levels = [...Array(20).fill(100), ...Array(12).fill(130)];
      for (const [i, level] of levels.entries()) {
        const report = await bench.json('POST', '/v0/projects/the-computer/reports', {
          token: bench.muriel,
          body: {
            branch: 'main',
            testbed: 'localhost',
            hash: (i + 1).toString(16).padEnd(40, 'a'),
            start_time: at(i * 10),
            end_time: at(i * 10 + 1),
            results: [bmf({ 'tests::fib': { latency: around(level, i) } })],
            settings: { adapter: 'json' },
            ...(i === 0
              ? {
                  thresholds: {
                    models: { latency: { test: 'change_point', max_sample_size: 64, upper_boundary: 0.99 } },
                  },
                }
              : {}),
          },
        });
        alert ??= report.alerts[0];
      }
    }, 60_000);
    afterEach(() => bench.close());

    const perfPage = async (page: Page) => {
      const query = new URLSearchParams({
        branches: alert.threshold.branch.uuid,
        testbeds: alert.threshold.testbed.uuid,
        benchmarks: alert.benchmark.uuid,
        measures: alert.threshold.measure.uuid,
      });
      await page.goto(`${bench.base}/perf/the-computer?${query}`);
      await page.waitForSelector('[data-testid="plot"][data-points] canvas', { timeout: 20_000 });
    };

    it('lists the change under the plot and names it in the tooltip of its first point', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await perfPage(page);
      const listed = await page.getByTestId('plot-changes').textContent();
      expect(listed).toMatch(
        /tests::fib · main · Latency: \+(29|30)\.\d % \(100 → 1(29|30)(\.\d+)?\), between version 19 \(14a{10}\) and version 20 \(15a{10}\)/,
      );

      // Sweep the cursor over the plot until the tooltip shows the change point (at version 20's point).
      const over = page.locator('#plot .u-over');
      const box = await over.boundingBox();
      if (!box) throw new Error('no plot area');
      let tip = '';
      for (let x = 2; x < box.width && !tip.includes('Change point'); x += 4) {
        await page.mouse.move(box.x + x, box.y + box.height / 2);
        tip = (await page.locator('.plot-tip').textContent()) ?? '';
      }
      expect(tip).toMatch(/Change point\+(29|30)\.\d % \(100 → 1(29|30)(\.\d+)?\), between version 19/);
      expect(tip).toContain('15aaaaaaaaaa');
      await page.screenshot({ path: `${SCREENSHOTS}change-point.png`, fullPage: true });
      await page.close();
    }, 60_000);

    it('names the change and its size on the alert page', async () => {
      const page = await browser.newPage();
      await page.goto(`${bench.base}/perf/the-computer/alerts/${alert.uuid}`);
      const row = await page.getByTestId('change-point').textContent();
      expect(row).toMatch(
        /^increase of \+(29|30)\.\d % \(100 → 1(29|30)(\.\d+)?\), between version 19 \(14a{10}\) and version 20 \(15a{10}\)/,
      );
      await page.getByRole('link', { name: 'first report after' }).click();
      await page.waitForURL(new RegExp(`/reports/${alert.change_point.to_report}$`));
      await page.close();
    }, 60_000);
  });
});
