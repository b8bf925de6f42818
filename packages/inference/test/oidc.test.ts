import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully } from '@atrium/core';
import { chromiumAvailable, launchChromium, listen, silentLogger } from '@atrium/core/testing';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../src/index.js';
import { findAccountByEmail } from '../src/storage/accounts.js';

describe.skipIf(!chromiumAvailable)('OIDC sign-in against a local OpenID Connect provider', () => {
  let dir: string;
  let providerServer: Server;
  let base: string;
  let stop: () => Promise<void>;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-oidc-'));
    let handler: RequestListener = (_request, response) => response.end();
    providerServer = createServer((request, response) => handler(request, response));
    await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
    const config = inferenceConfigSchema.parse({
      port: 0,
      auth: { demo: false },
      oidc: { issuer, clientId: 'atrium', clientSecret: 'atrium-client-secret', name: 'Test IdP' },
      models: [{ id: 'acme/m', contextLength: 100, backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] } }],
    });
    const app = await buildInferenceApp(config, { logger: silentLogger, dataDir: dir, accessLog: false });
    base = await listen(app);
    stop = () => closeGracefully(app, 2_000);
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'atrium',
          client_secret: 'atrium-client-secret',
          redirect_uris: [`${base}/ui/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: ['test-cookie-key'] },
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({ sub: id, email: `${id}@idp.example`, email_verified: true, name: `User ${id}` }),
      }),
    });
    handler = provider.callback();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stop?.();
    await new Promise((resolve) => providerServer?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in through the provider and creates the account linked to the identity', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(5_000);
    await page.route(/fonts\.googleapis\.com/, (route) => route.abort());
    await page.goto(`${base}/ui/`);
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
    await page.locator('input[name=login]').fill('alice');
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/ui/`);
    await page.waitForSelector('text=You are not a member of any project.');
    expect(await page.textContent('header')).toContain('alice@idp.example');

    const database = await openInferenceDatabase(`sqlite:${join(dir, 'inference.db')}`);
    try {
      const account = await findAccountByEmail(database.db, 'alice@idp.example');
      expect(account?.oidc_subject).toMatch(/^http:\/\/127\.0\.0\.1:\d+\|alice$/);
    } finally {
      await database.close();
    }
    await context.close();
  }, 60_000);

  it('refuses a callback without the login it started', async () => {
    const response = await fetch(`${base}/ui/oidc/callback?code=x&state=y`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('sign-in was not completed');
  });
});
