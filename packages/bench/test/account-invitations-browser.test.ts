import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedIn } from './console-support.js';
import { type Bench, outboxOf, seedProject, startBench } from './harness.js';

/** The console's members page (pending invitations, revoke) and account page (an e-mail change confirmed by link). */
describe.skipIf(!chromiumAvailable)('bench console invitations and e-mail change in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  describeEachDialect('console', ({ url }) => {
    let bench: Bench;
    beforeEach(async () => {
      bench = await startBench(url());
    });
    afterEach(() => bench.close());

    it('shows pending invitations to their sender, who revokes one; the revoked link no longer works', async () => {
      const { org } = await seedProject(bench);
      const context = await signedIn(browser, bench);
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await page.goto(`${bench.base}/console/organizations/${org.slug}/members`);
      await page.getByText('No pending invitations.').waitFor();
      await page.getByLabel('Email').fill('courage@nowhere.com');
      await page.locator('#invite').getByLabel('Role').selectOption('leader');
      await page.getByRole('button', { name: 'Invite' }).click();
      const row = page.getByTestId('invitations').locator('tr', { hasText: 'courage@nowhere.com' });
      await row.waitFor();
      expect(await row.locator('td').allTextContents()).toEqual([
        'courage@nowhere.com',
        'leader',
        'Muriel Bagge',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        'Revoke',
      ]);
      const code = /^Invite code: (\S+)$/m.exec((await outboxOf(bench, 1))[0]?.body ?? '')?.[1];

      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.locator('#notice').filter({ hasText: 'Invitation to courage@nowhere.com revoked.' }).waitFor();
      await page.getByText('No pending invitations.').waitFor();
      const accepted = await bench.call('POST', '/v0/auth/accept', { token: bench.courage, body: { invite: code } });
      expect(accepted.status).toBe(400);
      await context.close();
    });

    it('changes the email only once the link mailed to the new address is followed', async () => {
      const context = await signedIn(browser, bench, Date.now() + 3_600_000, {
        slug: 'courage',
        token: bench.courage,
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await page.goto(`${bench.base}/console/users/courage/settings`);
      await page.getByLabel('Email').fill('courage.the.dog@nowhere.com');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/console\/users\/courage\/settings\?notify_text=/);
      expect(await page.locator('#notice').textContent()).toContain(
        'follow the link mailed to courage.the.dog@nowhere.com',
      );
      expect(await page.getByTestId('pending-email').textContent()).toContain(
        'A change to courage.the.dog@nowhere.com',
      );
      expect(await page.getByLabel('Email').inputValue()).toBe('courage@nowhere.com');
      expect((await bench.json('GET', '/v0/users/courage', { token: bench.courage })).email).toBe(
        'courage@nowhere.com',
      );

      const mail = (await outboxOf(bench, 5)).find((m) => m.recipient === 'courage.the.dog@nowhere.com');
      const link = new URL(/^Confirm: (\S+)$/m.exec(mail?.body ?? '')?.[1] as string);
      await page.goto(`${bench.base}${link.pathname}${link.search}`);
      await page.getByText('Confirm courage.the.dog@nowhere.com as your email?').waitFor();
      await page.getByRole('button', { name: 'Confirm new email' }).click();
      await page.waitForURL(/\/console\/users\/courage\/settings\?notify_text=/);
      expect(await page.locator('#notice').textContent()).toContain('Your email is now courage.the.dog@nowhere.com.');
      expect(await page.getByLabel('Email').inputValue()).toBe('courage.the.dog@nowhere.com');
      const stored = JSON.parse((await page.evaluate(`localStorage.getItem('BENCHER_USER')`)) as string);
      expect((await bench.json('GET', '/v0/users/courage', { token: stored.token })).email).toBe(
        'courage.the.dog@nowhere.com',
      );

      // The link works once.
      await page.goto(`${bench.base}${link.pathname}${link.search}`);
      await page.getByRole('button', { name: 'Confirm new email' }).click();
      await page.locator('#notice').filter({ hasText: 'Failed to change your email' }).waitFor();
      await context.close();
    });
  });
});
