import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { seedTenant } from './support/tenancy.js';
import { startUiApp, UI_MODEL, type UiApp } from './support/ui-app.js';

let browser: Browser | undefined;
beforeAll(async () => {
  if (chromiumAvailable) browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

const seed = async (db: Parameters<typeof seedTenant>[0]) => {
  const tenant = await seedTenant(db, {}, Date.now());
  const { secret } = await tenant.key({ alias: 'laptop' }, [UI_MODEL], Date.now());
  return { member: tenant.member, secret };
};

const signInPage = (page: Page) => page.getByRole('button', { name: 'Sign in with key' });

/**
 * Two gateway processes on one database: a key signs in to the web UI on one, its owner revokes it on the
 * other, and the key's session ends within a second on every page.
 */
describeEachDialect('a web-UI session opened with an API key', ({ url }) => {
  let apps: UiApp<unknown>[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
  });

  it.skipIf(!chromiumAvailable)(
    'ends within a second once the key is revoked elsewhere',
    async () => {
      const owner = await startUiApp(seed, { database: url() });
      const other = await startUiApp(async () => undefined, { database: url() });
      apps = [owner, other];
      const { member, secret } = owner.seeded;

      const keyContext = await (browser as Browser).newContext();
      const keyPage = await keyContext.newPage();
      await keyPage.goto(`${other.base}/ui/`);
      await keyPage.getByLabel('API key').fill(secret);
      await signInPage(keyPage).click();
      await keyPage.getByRole('heading', { name: 'API key “laptop”' }).waitFor();
      await keyPage.goto(`${other.base}/ui/connect`);
      await keyPage.getByRole('heading', { name: 'Models' }).waitFor();

      const ownerContext = await (browser as Browser).newContext();
      const ownerPage = await ownerContext.newPage();
      await ownerPage.goto(`${owner.base}/ui/`);
      await ownerPage.getByLabel('Email').fill(member.email);
      await ownerPage.getByLabel('Password').fill('m-password');
      await ownerPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await ownerPage.getByRole('button', { name: 'Revoke laptop' }).click();
      await ownerPage.getByTestId('keys').getByText('revoked').waitFor();
      const revoked = Date.now();

      // The next page load in the key's browser, on the other process, lands on sign-in.
      let signedOutAfter: number | undefined;
      while (signedOutAfter === undefined && Date.now() - revoked < 3_000) {
        await keyPage.goto(`${other.base}/ui/`);
        if (await signInPage(keyPage).isVisible()) signedOutAfter = Date.now() - revoked;
      }
      expect(signedOutAfter).toBeLessThan(1_000);
      await keyPage.goto(`${other.base}/ui/connect`);
      expect(await signInPage(keyPage).isVisible()).toBe(true);
      await keyContext.close();
      await ownerContext.close();
    },
    60_000,
  );
});
