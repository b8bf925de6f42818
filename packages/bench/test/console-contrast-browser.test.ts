import { browserSuite, chromiumAvailable, measureContrast } from '@atrium/core/testing';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn, startSeededConsole } from './console-support.js';
import type { Json } from './harness.js';

describe.skipIf(!chromiumAvailable)('every page of the bench console: visible, contrasting controls', () => {
  const suite = browserSuite(startSeededConsole);

  /** Loads each page until the console has drawn it, and measures every control on it. */
  async function check(context: BrowserContext, paths: string[]) {
    const page = await context.newPage();
    for (const path of paths) {
      await page.goto(`${suite.server.base}${path}`, { waitUntil: 'networkidle' });
      const { count, problems } = await measureContrast(page);
      expect(count, path).toBeGreaterThan(0);
      expect([path, problems]).toEqual([path, []]);
    }
    await page.close();
  }

  const first = async (path: string) =>
    ((await suite.server.json('GET', path, { token: suite.server.muriel })) as Json[])[0] as {
      uuid: string;
      slug?: string;
    };

  it('signed out: log-in, sign-up, the public perf pages', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await check(context, ['/auth/login', '/auth/signup', '/perf', '/perf/the-computer', '/perf/the-computer/embed']);
    await context.close();
  });

  it('signed in: the console, its organisation and project pages, user settings and keys', async () => {
    const context = await signedIn(suite.browser, suite.server);
    const project = '/console/projects/the-computer';
    const threshold = await first('/v0/projects/the-computer/thresholds');
    const branch = await first('/v0/projects/the-computer/branches');
    const alert = suite.server.seeded.regression.alerts[0].uuid as string;
    await check(context, [
      '/console',
      '/console/organizations',
      `/console/organizations/${suite.server.seeded.org.slug}/projects`,
      `/console/organizations/${suite.server.seeded.org.slug}/members`,
      `/console/organizations/${suite.server.seeded.org.slug}/settings`,
      `${project}/plots`,
      `${project}/reports`,
      `${project}/reports/${suite.server.seeded.regression.uuid}`,
      `${project}/alerts`,
      `${project}/alerts/${alert}`,
      `${project}/thresholds`,
      `${project}/thresholds/add`,
      `${project}/thresholds/${threshold.uuid}`,
      `${project}/thresholds/${threshold.uuid}/edit`,
      `${project}/branches`,
      `${project}/branches/${branch.slug ?? branch.uuid}`,
      `${project}/testbeds`,
      `${project}/benchmarks`,
      `${project}/measures`,
      `${project}/keys`,
      `${project}/settings`,
      '/console/users/muriel-bagge/settings',
      '/console/users/muriel-bagge/keys',
      '/console/users/muriel-bagge/tokens',
      `/perf/the-computer`,
    ]);
    await context.close();
  });
});
