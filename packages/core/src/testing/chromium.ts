import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const EXECUTABLE = '/usr/bin/chromium';

/**
 * Whether the browser tests run. Debian's `chromium` is installed by `.ci/run`; elsewhere a machine
 * without it skips them with a warning, and under CI=true its absence is an error.
 */
export const chromiumAvailable: boolean = (() => {
  if (existsSync(EXECUTABLE)) return true;
  if (process.env.CI === 'true')
    throw new Error(`${EXECUTABLE} is missing; CI=true requires it (apt-get install chromium)`);
  console.warn(`WARNING: ${EXECUTABLE} is missing (apt-get install chromium): skipping the browser tests`);
  return false;
})();

/** Debian's headless Chromium, with nothing that would reach the network on its own. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
