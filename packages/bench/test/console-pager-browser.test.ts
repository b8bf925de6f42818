import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConsole, startConsoleBench } from './console-support.js';
import type { Bench } from './harness.js';

/** A list's pager buttons: the page lives in the URL, Next and Previous redraw the list. */
describe.skipIf(!chromiumAvailable)('bench console pager in headless Chromium', () => {
  let bench: Bench;
  let browser: Browser;

  beforeAll(async () => {
    bench = await startConsoleBench();
    await seedConsole(bench);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bench?.close();
  });

  it('pages through the 31 reports, 20 at a time, with the page in the URL', async () => {
    const page = await browser.newPage();
    await page.goto(`${bench.base}/perf/the-computer/reports`);
    const rows = () => page.locator('[data-testid="list"] tr').count();
    await page.getByText('Page 1 of 2').waitFor();
    expect(await rows()).toBe(21);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await rows()).toBe(12);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 of 2').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('1');
    await page.close();
  }, 60_000);
});
