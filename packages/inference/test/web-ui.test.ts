import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, seedTenant } from './support/tenancy.js';
import { UI_MODEL as MODEL, startUiApp, type UiApp } from './support/ui-app.js';

describe.skipIf(!chromiumAvailable)('web UI in headless Chromium', () => {
  let app: UiApp<Awaited<ReturnType<typeof seed>>>;
  let base: string;
  let browser: Browser;
  let member: { email: string };
  let pi: { email: string };
  let other: { pi: { email: string }; operator: { email: string } };

  const seed = async (db: Parameters<typeof seedTenant>[0]) => ({
    tenant: await seedTenant(db, {}, Date.now()),
    other: await seedProject(db, 'elsewhere', Date.now()),
  });

  beforeAll(async () => {
    app = await startUiApp(seed);
    base = app.base;
    ({ member, pi } = app.seeded.tenant);
    other = app.seeded.other;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const chat = (secret: string) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
    });

  async function signIn(page: Page, email = member.email, password = 'm-password') {
    await page.goto(`${base}/ui/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForSelector('main section[data-project], main section:has-text("not a member")');
  }

  async function submitKeyForm(page: Page, alias: string): Promise<void> {
    await page.getByText('Create a key').click();
    await page.getByLabel('Alias').fill(alias);
    await page.getByLabel('Token budget (optional)').fill('1000');
    await page.getByLabel('Reset period').selectOption('week');
    await page.getByLabel(MODEL).check();
    await page.getByRole('button', { name: 'Create key' }).click();
  }

  async function createKey(page: Page, alias: string): Promise<string> {
    await submitKeyForm(page, alias);
    return (await page.getByTestId('secret').textContent()) ?? '';
  }

  it('signs in with a password, creates a key whose secret is shown once, revokes it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/ui/`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Wrong email or password');
    await signIn(page);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'atrium_ui');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/ui' });

    const secret = await createKey(page, 'Laptop');
    expect(secret).toMatch(/^sk-[0-9A-Za-z]{40}$/);
    expect((await chat(secret)).status).toBe(200);
    await page.goto(`${base}/ui/`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByTestId('keys').textContent()).toContain('Laptop');

    await submitKeyForm(page, ' laptop ');
    expect(await page.getByTestId('secret').count()).toBe(0);
    expect(await page.getByRole('alert').textContent()).toContain("a key with the alias 'laptop' already exists");

    await page.getByRole('button', { name: 'Revoke Laptop' }).click();
    await page.waitForSelector('text=revoked');
    expect((await chat(secret)).status).toBe(401);
    await context.close();
  }, 60_000);

  it('signs in with a key and shows its usage after traffic', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    const secret = await createKey(page, 'usage');
    for (let i = 0; i < 3; i++) expect((await chat(secret)).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(secret);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await expect
      .poll(async () => {
        await page.reload();
        return page.getByTestId('usage').textContent();
      })
      .toContain(`${MODEL}34248`); // 3 requests, 42 prompt tokens, 48 completion tokens
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('90 of 1000 tokens used, 910 remaining');
    expect(await page.locator('svg polyline').count()).toBe(1);
    expect(text).not.toContain('Create a key');
    await context.close();
  }, 60_000);

  it('path (b): the PI files a service-desk request, an operator approves it, the credits appear', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, other.pi.email, 'pi-password');
    await page.getByLabel('Request').fill('for our agents');
    await page.getByLabel('Node hours').fill('5');
    await page.getByRole('button', { name: 'File request' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, other.operator.email, 'op-password');
    const queue = (await page.getByTestId('requests').textContent()) ?? '';
    expect(queue).toContain('for our agents');
    expect(queue).toMatch(/project-\d+for our agents/);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('[data-testid=requests]');
    expect(await page.getByTestId('requests').textContent()).not.toContain('for our agents');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, other.pi.email, 'pi-password');
    expect(await page.getByTestId('credits').textContent()).toBe('50'); // 5 node hours × 10 credits
    await context.close();
  }, 60_000);

  it('announcements: a member opts out, an operator posts one, the outbox and the status page show it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.getByRole('button', { name: 'Opt out of announcement emails' }).click();
    expect(await page.getByTestId('subscription').textContent()).toContain('opted out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, other.operator.email, 'op-password');
    await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'Announcements' }).click();
    await page.getByLabel('Kind').selectOption('maintenance');
    await page.getByLabel('Title').fill('GPU driver update');
    await page.getByLabel('Starts (UTC)').fill('2030-01-01T08:00');
    await page.getByLabel('Ends (UTC)').fill('2030-01-01T10:00');
    await page.getByRole('button', { name: 'Post announcement' }).click();
    const outbox = (await page.getByTestId('outbox').textContent()) ?? '';
    expect(outbox).toContain(pi.email);
    expect(outbox).toContain('Planned maintenance: GPU driver update');
    expect(outbox).not.toContain(member.email);
    expect(outbox).toContain('in outbox');
    expect(await page.getByTestId('delivery').textContent()).toContain('No SMTP server is configured');
    await page.goto(`${base}/ui/status`);
    expect(await page.textContent('main')).toMatch(
      /Upcoming.*GPU driver update — 2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z/s,
    );
    await context.close();
  }, 60_000);

  it('refuses forms without the CSRF token', async () => {
    const signIn = await fetch(`${base}/ui/signin/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'atrium_ui_csrf=abc' },
      body: new URLSearchParams({ email: member.email, password: 'm-password', csrf: 'abd' }).toString(),
    });
    expect(signIn.status).toBe(403);
    expect(signIn.headers.get('set-cookie')).toBeNull();
    const revoke = await fetch(`${base}/ui/keys/x/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=x',
    });
    expect(revoke.status).toBe(401);
    expect(await revoke.text()).toContain('Sign in again');
  });
});
