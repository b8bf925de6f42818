import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bench, type Json, startBench } from './harness.js';

const CONSOLE = 'http://console.test';

/**
 * Google's side played by `oidc-provider` (a certified OpenID Connect provider) on loopback: discovery, its own
 * log-in and consent pages driven in Chromium, the code exchange and userinfo. The browser's last redirect, to the
 * console's return page, is read off the request (the console is not running here) and posted as the console would,
 * with the cookie the start of the sign-in set.
 */
describe.skipIf(!chromiumAvailable)('bench OAuth sign-in with Google (OpenID Connect) against a local provider', () => {
  let dir: string;
  let providerServer: Server;
  let bench: Bench;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-bench-google-'));
    let handler: RequestListener = (_request, response) => response.end();
    providerServer = createServer((request, response) => handler(request, response));
    await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
    handler = new Provider(issuer, {
      clients: [
        {
          client_id: 'bench-google',
          client_secret: 'bench-google-secret',
          redirect_uris: [`${CONSOLE}/auth/google`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => false },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: ['test-cookie-key'] },
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({
          sub: id,
          email: `${id}@idp.example`,
          email_verified: id !== 'unverified',
          name: `User ${id}`,
        }),
      }),
    }).callback();
    bench = await startBench(`sqlite:${join(dir, 'bench.db')}`, {
      consoleUrl: CONSOLE,
      auth: { google: { clientId: 'bench-google', clientSecret: 'bench-google-secret', issuer } },
    });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await bench?.close();
    await new Promise((resolve) => providerServer?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Authorization URL from the API, the provider's pages in the browser, then the code posted back. */
  async function signIn(login: string) {
    const started = await bench.call('GET', '/v0/auth/google');
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const { url: authorize } = (await started.json()) as Json;
    expect(authorize).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?client_id=bench-google&/);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(authorize);
      await page.locator('input[name=login]').fill(login);
      await page.locator('input[name=password]').fill('anything');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      const back = page.waitForRequest((request) => request.url().startsWith(`${CONSOLE}/auth/google?`));
      await page.getByRole('button', { name: 'Continue' }).click();
      const returned = new URL((await back).url());
      return fetch(`${bench.base}/v0/auth/google`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ code: returned.searchParams.get('code'), state: returned.searchParams.get('state') }),
      });
    } finally {
      await context.close();
    }
  }

  it('signs a new user up with the verified email, then signs them in again as the same user', async () => {
    const first = await signIn('alice');
    expect(first.status).toBe(202);
    const body = (await first.json()) as Json;
    expect(body.user.user).toMatchObject({ name: 'User alice', email: 'alice@idp.example' });
    const me = await bench.json('GET', `/v0/users/${body.user.user.slug}`, { token: body.user.token });
    expect(me.email).toBe('alice@idp.example');
    const again = (await (await signIn('alice')).json()) as Json;
    expect(again.user.user.uuid).toBe(body.user.user.uuid);
  }, 60_000);

  it('refuses an account whose email the provider has not verified', async () => {
    expect((await signIn('unverified')).status).toBe(401);
  }, 60_000);
});
