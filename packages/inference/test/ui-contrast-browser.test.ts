import { browserSuite, chromiumAvailable, measureContrast } from '@atrium/core/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createProject, setMember } from '../src/storage/projects.js';
import { fileServiceRequest } from '../src/tenancy/service-desk.js';
import { seedProject, seedTenant } from './support/tenancy.js';
import { startUiApp } from './support/ui-app.js';

async function seed(db: Parameters<typeof seedTenant>[0]) {
  const now = Date.now();
  const tenant = await seedTenant(db, {}, now);
  const { key, secret } = await tenant.key({ alias: 'laptop', budgetTokens: 1000, resetPeriod: 'week' }, [], now);
  const other = await seedProject(db, 'elsewhere', now);
  await fileServiceRequest(
    db,
    other.pi,
    { projectId: other.project.id, service: 'Inference API', text: 'for our agents', nodeHours: 5, cluster: 'c1' },
    now,
  );
  const lapsed = await createProject(db, 'lapsed', 'elsewhere', now);
  await setMember(db, lapsed.id, other.pi.id, 'pi');
  return { tenant, other, keyId: key.id, secret };
}

describe.skipIf(!chromiumAvailable)('every page of the inference web UI: visible, contrasting controls', () => {
  const suite = browserSuite(() => startUiApp(seed));

  async function signedIn(email?: string, password?: string): Promise<BrowserContext> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/ui/`);
    if (email && password) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    } else {
      await page.getByLabel('API key').fill(suite.server.seeded.secret);
      await page.getByRole('button', { name: 'Sign in with key' }).click();
    }
    await page.waitForSelector('header form[action="/ui/signout"]');
    await page.close();
    return context;
  }

  /** Opens every `<details>` so that the controls inside are measured too. */
  const openDetails = (page: Page) =>
    page.evaluate(`document.querySelectorAll('details').forEach((d) => { d.open = true; })`);

  async function check(context: BrowserContext, paths: string[], status = 200) {
    const page = await context.newPage();
    for (const path of paths) {
      const response = await page.goto(`${suite.server.base}${path}`);
      expect([path, response?.status()]).toEqual([path, status]);
      await openDetails(page);
      const { count, problems } = await measureContrast(page);
      expect(count, path).toBeGreaterThan(0);
      expect([path, problems]).toEqual([path, []]);
    }
    await page.close();
  }

  it('signed out: the sign-in page and the status page', async () => {
    const context = await suite.browser.newContext();
    await check(context, ['/ui/', '/ui/status']);
    await context.close();
  });

  it('a member: projects, connect, the key page; a refusal keeps the navigation and Sign out', async () => {
    const context = await signedIn(suite.server.seeded.tenant.member.email, 'm-password');
    await check(context, ['/ui/', '/ui/connect', `/ui/keys/${suite.server.seeded.keyId}`]);
    await check(context, ['/ui/operator/models'], 403);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/ui/operator/models`);
    await expect(page.locator('header').getByRole('button', { name: 'Sign out' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('header').getByRole('link', { name: 'Connect your client' }).isVisible()).resolves.toBe(
      true,
    );
    await context.close();
  });

  it('a PI of projects without a resource: the service-desk form and its requests, or why there is none', async () => {
    const context = await signedIn(suite.server.seeded.other.pi.email, 'pi-password');
    await check(context, ['/ui/']);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/ui/`);
    expect(await page.getByTestId('project-requests').textContent()).toContain('pending');
    expect(await page.locator('section[data-project="lapsed"]').textContent()).toContain(
      'An inference resource can be requested while the project has an active grant',
    );
    // Not emailed (no project of theirs has a resource), and not told they are.
    expect(await page.getByTestId('subscription').textContent()).toContain(
      'You will receive announcement emails (maintenance, incidents, model changes) once a project of yours has an inference resource.',
    );
    await context.close();
  });

  it('an operator: home and every operator page', async () => {
    const context = await signedIn(suite.server.seeded.tenant.operator.email, 'op-password');
    await check(context, [
      '/ui/',
      '/ui/operator/rates',
      '/ui/operator/resources',
      '/ui/operator/models',
      '/ui/operator/announcements',
      `/ui/keys/${suite.server.seeded.keyId}`,
    ]);
    await context.close();
  });

  it('a key session: its usage and the connect page; its CSV, which a PI of another project may not read', async () => {
    const context = await signedIn();
    await check(context, ['/ui/', '/ui/connect']);
    const csv = `${suite.server.base}/ui/keys/${suite.server.seeded.keyId}/usage.csv`;
    const own = await context.request.get(csv);
    expect([own.status(), own.headers()['content-type'], (await own.text()).split('\r\n')[0]]).toEqual([
      200,
      'text/csv; charset=utf-8',
      'key,day,model,requests,prompt_tokens,completion_tokens,total_tokens,credits',
    ]);
    const outsider = await signedIn(suite.server.seeded.other.pi.email, 'pi-password');
    expect((await outsider.request.get(csv)).status()).toBe(403);
    await Promise.all([context.close(), outsider.close()]);
  });
});
