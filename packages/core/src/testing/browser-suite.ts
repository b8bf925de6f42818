import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium.js';

export interface BrowserSuite<T> {
  readonly server: T;
  readonly browser: Browser;
}

/**
 * For the enclosing describe: starts `start()` and a headless Chromium before its tests and closes both
 * after them. Read `server` and `browser` inside the tests.
 */
export function browserSuite<T extends { close(): Promise<unknown> }>(
  start: () => Promise<T>,
  timeout = 60_000,
): BrowserSuite<T> {
  const suite = {} as { server: T; browser: Browser };
  beforeAll(async () => {
    suite.server = await start();
    suite.browser = await launchChromium();
  }, timeout);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
