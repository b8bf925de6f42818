import { browserSuite, chromiumAvailable } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { seedProject, seedTenant } from './support/tenancy.js';
import { startUiApp, UI_MODEL } from './support/ui-app.js';

const seed = async (db: Kysely<InferenceDatabase>) => ({
  tenant: await seedTenant(db, { credits: 1_000 }, Date.now()),
  bare: await seedProject(db, 'atrium', Date.now()),
});

describe.skipIf(!chromiumAvailable)('operator pages in headless Chromium', () => {
  const suite = browserSuite(() => startUiApp(seed));

  async function signedIn(email: string, password: string): Promise<Page> {
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(`${suite.server.base}/ui/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForSelector('main section');
    return page;
  }

  const operator = () => signedIn(suite.server.seeded.tenant.operator.email, 'op-password');
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name }).click();

  it('are for operators only', async () => {
    const member = await signedIn(suite.server.seeded.tenant.member.email, 'm-password');
    expect(await member.getByRole('navigation', { name: 'Operator' }).count()).toBe(0);
    for (const path of ['rates', 'resources', 'models', 'announcements']) {
      const response = await member.goto(`${suite.server.base}/ui/operator/${path}`);
      expect(response?.status()).toBe(403);
      expect(await member.getByRole('alert').textContent()).toBe('Only operators can see this page.');
    }
    const top = await member.request.post(
      `${suite.server.base}/ui/operator/projects/${suite.server.seeded.tenant.project.id}/top-up`,
      {
        form: { credits: '1000000', csrf: 'guess' },
      },
    );
    expect(top.status()).toBe(403);
    const signedOut = await fetch(`${suite.server.base}/ui/operator/models`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.text()).toContain('Sign in with an operator account');
  }, 60_000);

  it('node-hour rates: history per cluster, a new rate in force from now, bad input explained', async () => {
    const page = await operator();
    await nav(page, 'Node-hour rates');
    expect(await page.getByTestId('rates').textContent()).toMatch(/c110.*in force/);
    await page.getByLabel('Cluster').fill('c1');
    await page.getByLabel('Credits per node hour').fill('12.5');
    await page.getByRole('button', { name: 'Set rate' }).click();
    await page.waitForURL(/\/ui\/operator\/rates$/);
    const rows = await page.getByTestId('rates').locator('tr').allTextContents();
    expect(rows.slice(1)).toEqual([
      expect.stringMatching(/^c112\.5.*in force$/),
      expect.stringMatching(/^c110.*superseded$/),
    ]);

    await page.getByLabel('Cluster').fill('c2');
    await page.getByLabel('Credits per node hour').fill('0');
    await page.getByRole('button', { name: 'Set rate' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('the rate must be positive');

    // The new rate is the one a conversion uses now: 2 node hours × 12.5.
    const pi = await signedIn(suite.server.seeded.bare.pi.email, 'pi-password');
    await pi.getByLabel('Node hours').fill('2');
    await pi.getByRole('button', { name: 'Create inference resource' }).click();
    expect(await pi.getByTestId('credits').textContent()).toBe('25');
  }, 60_000);

  it('credits and limits: top-ups recorded with who, limits set and cleared, bad input explained', async () => {
    const page = await operator();
    await nav(page, 'Credits and limits');
    const { tenant } = suite.server.seeded;
    const section = page.locator(`section[data-resource="${tenant.project.name}"]`);
    expect(await section.getByTestId('credits-left').textContent()).toBe('1000');
    await section.getByLabel('Credits to add').fill('250');
    await section.getByRole('button', { name: 'Top up' }).click();
    await page.waitForURL(/\/ui\/operator\/resources$/);
    expect(await section.getByTestId('credits-left').textContent()).toBe('1250');
    expect(await page.getByTestId('top-ups').textContent()).toContain(
      `${tenant.project.name}250${tenant.operator.email}`,
    );

    await section.getByLabel('Requests per minute').fill('60');
    await section.getByLabel('Concurrent requests').fill('4');
    await section.getByRole('button', { name: 'Save limits' }).click();
    await page.waitForURL(/\/ui\/operator\/resources$/);
    expect(await section.getByLabel('Requests per minute').inputValue()).toBe('60');
    expect(await section.getByLabel('Tokens per minute').inputValue()).toBe('');
    expect(await section.getByLabel('Concurrent requests').inputValue()).toBe('4');

    await section.getByLabel('Requests per minute').fill('');
    await section.getByRole('button', { name: 'Save limits' }).click();
    await page.waitForURL(/\/ui\/operator\/resources$/);
    expect(await section.getByLabel('Requests per minute').inputValue()).toBe('');
    expect(await section.getByLabel('Concurrent requests').inputValue()).toBe('4');

    // `pattern` would stop the browser; a hand-made request gets the server's answer.
    await section.getByLabel('Tokens per minute').evaluate((input) => input.removeAttribute('pattern'));
    await section.getByLabel('Tokens per minute').fill('1.5');
    await section.getByRole('button', { name: 'Save limits' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('tokens per minute must be a positive whole number');
  }, 60_000);

  it('model catalogue: id, backend, context length and prices from the configuration', async () => {
    const page = await operator();
    await nav(page, 'Models');
    const rows = await page.getByTestId('models').locator('tr').allTextContents();
    expect(rows[0]).toBe('ModelServed asBackendContext lengthInputOutputModalitiesCapabilities');
    const cells = await page.getByTestId('models').locator('tr').nth(1).locator('td').allTextContents();
    expect(cells).toEqual([
      UI_MODEL,
      UI_MODEL,
      expect.stringMatching(/^upstream: http:\/\/127\.0\.0\.1:\d+$/),
      '4096',
      '1',
      '1',
      'text',
      'tools',
    ]);
  }, 60_000);
});
