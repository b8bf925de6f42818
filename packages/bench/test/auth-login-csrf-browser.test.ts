import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubAccount, startGitHub } from './github-stand-in.js';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';

const CONSOLE = 'http://console.test';

/**
 * Login CSRF (finding L2): a link or an OAuth return made by an attacker, for the attacker's account, opened in a
 * victim's browser. The console must not sign that browser in unnoticed.
 */
describe.skipIf(!chromiumAvailable)('bench console against login CSRF in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  describeEachDialect('sign-in links and OAuth returns', ({ url }) => {
    let bench: Bench;
    let github: Awaited<ReturnType<typeof startGitHub>>;
    let context: BrowserContext;
    let page: Page;
    beforeEach(async () => {
      github = await startGitHub();
      bench = await startBench(url(), {
        consoleUrl: CONSOLE,
        auth: {
          github: {
            clientId: 'gh-client',
            clientSecret: 'gh-secret',
            url: github.base,
            apiUrl: `${github.base}/api/v3`,
          },
        },
      });
      context = await browser.newContext();
      // The provider sends the browser back to the console URL, which is this bench server here.
      await context.route(`${github.base}/login/oauth/authorize?**`, async (route) => {
        const answered = await fetch(route.request().url(), { redirect: 'manual' });
        const back = new URL(answered.headers.get('location') as string);
        expect(back.origin).toBe(CONSOLE);
        return route.fulfill({ status: 302, headers: { location: `${bench.base}${back.pathname}${back.search}` } });
      });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
    });
    afterEach(async () => {
      await context.close();
      await bench.close();
      github.close();
    });

    const signedInAs = async () => {
      const stored = (await page.evaluate(`localStorage.getItem('BENCHER_USER')`)) as string | null;
      return stored ? (JSON.parse(stored) as Json).user.email : null;
    };

    async function linkFor(email: string): Promise<string> {
      expect((await bench.call('POST', '/v0/auth/login', { body: { email } })).status).toBe(202);
      let link: string | undefined;
      await expect
        .poll(async () => {
          const message = (await outboxOf(bench, 5)).find((m) => m.recipient === email);
          link = message && /\/auth\/confirm\?token=(\S+)/.exec(message.body)?.[0];
          return link !== undefined;
        })
        .toBe(true);
      return `${bench.base}${link}`;
    }

    it('asks "Continue as …?" before a confirmation link signs the browser in', async () => {
      const confirms: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v0/auth/confirm') confirms.push(request.method());
      });
      const attackers = await linkFor('courage@nowhere.com');
      await page.goto(attackers);
      await page.getByRole('heading', { name: 'Continue as courage@nowhere.com?' }).waitFor();
      expect(confirms).toEqual([]);
      expect(await signedInAs()).toBeNull();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(/\/auth\/login$/);
      expect(await signedInAs()).toBeNull();
      expect(confirms).toEqual([]);
      // Nothing was exchanged: the link still works, once, for whoever asked for it.
      const token = new URL(attackers).searchParams.get('token');
      expect((await bench.call('POST', '/v0/auth/confirm', { body: { token } })).status).toBe(200);

      await page.goto(await linkFor('muriel.bagge@nowhere.com'));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/console(\?|$)/);
      expect(await signedInAs()).toBe('muriel.bagge@nowhere.com');
      // The browser now holds the cookie that exempts its owner's log-ins from the caps strangers can exhaust.
      const [remembered] = (await context.cookies(`${bench.base}/v0/auth/login`)).filter(
        (c) => c.name === 'atrium_bench_browser',
      );
      expect(remembered).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v0/auth' });
    });

    const mallory: GitHubAccount = {
      login: 'mallory',
      name: 'Mallory',
      emails: [{ email: 'mallory@nowhere.com', primary: true, verified: true }],
    };
    const dee: GitHubAccount = {
      login: 'dee',
      name: 'Dee',
      emails: [{ email: 'dee@nowhere.com', primary: true, verified: true }],
    };

    it("does not sign a browser in with another browser's OAuth code and state, and signs in the one that started", async () => {
      // The attacker starts a GitHub sign-in of their own and stops at the provider's redirect back.
      const { url: authorize } = await bench.json('GET', '/v0/auth/github');
      github.state.next = mallory;
      const redirected = await fetch(authorize, { redirect: 'manual' });
      const back = new URL(redirected.headers.get('location') as string);

      await page.goto(`${bench.base}/auth/github${back.search}`);
      await page.waitForURL(/\/auth\/login\?notify_kind=alert/);
      expect(decodeURIComponent(page.url())).toContain('started in another browser');
      expect(await signedInAs()).toBeNull();

      // The victim's own sign-in, started in their browser, goes through.
      github.state.next = dee;
      await page.goto(`${bench.base}/auth/login`);
      await page.getByRole('button', { name: 'Log in with GitHub' }).click();
      await page.waitForURL(/\/console(\?|$)/);
      expect(await signedInAs()).toBe('dee@nowhere.com');
    });
  });
});
