import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type GitHubAccount, startGitHub } from './github-stand-in.js';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';
import { respellings } from './respellings.js';

describeEachDialect('bench OAuth sign-in with GitHub against a local provider', ({ url }) => {
  let bench: Bench;
  let github: Awaited<ReturnType<typeof startGitHub>>;
  beforeEach(async () => {
    github = await startGitHub();
    bench = await startBench(url(), {
      consoleUrl: 'http://console.test',
      auth: {
        github: { clientId: 'gh-client', clientSecret: 'gh-secret', url: github.base, apiUrl: `${github.base}/api/v3` },
      },
    });
  });
  afterEach(async () => {
    await bench.close();
    github.close();
  });

  /** The provider's redirect back to the console: `code` and `state`, from `authorize` (for `account`). */
  async function backFrom(authorize: string, account: GitHubAccount) {
    github.state.next = account;
    const redirected = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(redirected.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe('http://console.test/auth/github');
    return { code: back.searchParams.get('code') as string, state: back.searchParams.get('state') as string };
  }

  /** Started as a browser would: the authorization URL and the cookie that binds the sign-in to the browser. */
  async function start(query = '') {
    const started = await bench.call('GET', `/v0/auth/github${query}`);
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const { url: authorize } = (await started.json()) as Json;
    expect(authorize).toMatch(new RegExp(`^${github.base}/login/oauth/authorize\\?client_id=gh-client&`));
    return { authorize: authorize as string, cookie };
  }

  /** The console's return page posting the code, from a browser holding `cookie` (none: '') */
  const complete = (back: { code: string; state: string }, cookie: string) =>
    fetch(`${bench.base}/v0/auth/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(back),
    });

  async function signIn(account: GitHubAccount, query = '') {
    const { authorize, cookie } = await start(query);
    return complete(await backFrom(authorize, account), cookie);
  }

  const dee = {
    login: 'DeeDee',
    name: 'Dee Dee 🎉',
    emails: [
      { email: 'old@nowhere.com', primary: false, verified: true },
      { email: 'dee@nowhere.com', primary: true, verified: true },
    ],
  };

  it('signs a new user up with their verified primary email, then signs them in again', async () => {
    const first = await signIn(dee);
    expect(first.status).toBe(202);
    const body = (await first.json()) as Json;
    expect(body.user.user).toMatchObject({ name: 'Dee Dee', slug: 'deedee', email: 'dee@nowhere.com' });
    expect((await bench.call('GET', '/v0/users/deedee', { token: body.user.token })).status).toBe(200);
    const organizations = await bench.json('GET', '/v0/organizations', { token: body.user.token });
    expect(organizations).toHaveLength(1);
    const again = (await (await signIn(dee)).json()) as Json;
    expect(again.user.user.uuid).toBe(body.user.user.uuid);
  });

  it('carries an invitation through the state, and refuses unverified emails, bad codes and forged state', async () => {
    const org = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: 'Bagge Farm' } });
    await bench.json('POST', `/v0/organizations/${org.slug}/members`, {
      token: bench.muriel,
      body: { email: 'dee@nowhere.com', role: 'member' },
      status: 202,
    });
    const invite = /^Invite code: (\S+)$/m.exec((await outboxOf(bench, 1))[0]?.body ?? '')?.[1] as string;
    const invited = (await (await signIn(dee, `?invite=${invite}`)).json()) as Json;
    const theirs = await bench.json('GET', '/v0/organizations', { token: invited.user.token });
    expect(theirs.map((o: Json) => o.slug)).toEqual([org.slug]);

    const unverified = { login: 'x', name: null, emails: [{ email: 'x@nowhere.com', primary: true, verified: false }] };
    expect((await signIn(unverified)).status).toBe(401);
    const { url: authorize } = await bench.json('GET', '/v0/auth/github');
    const stateParam = new URL(authorize).searchParams.get('state') as string;
    expect((await bench.call('POST', '/v0/auth/github', { body: { code: 'nope', state: stateParam } })).status).toBe(
      401,
    );
    const forged = `${stateParam.slice(0, -4)}AAAA`;
    expect((await bench.call('POST', '/v0/auth/github', { body: { code: 'code-0', state: forged } })).status).toBe(401);
  });

  it('takes a state once, only from the browser that started the sign-in, and only as it was signed', async () => {
    const { authorize, cookie } = await start();
    expect(cookie).toMatch(/^atrium_bench_oauth=[\w-]{43}$/);
    const started = await bench.call('GET', '/v0/auth/github');
    expect(started.headers.get('set-cookie')).toMatch(/; Path=\/v0\/auth; HttpOnly; SameSite=Lax; Max-Age=600$/);
    const otherBrowser = (started.headers.get('set-cookie') ?? '').split(';')[0] as string;

    // Login CSRF: the attacker's code and state, completed in a browser that did not start that sign-in.
    for (const browser of ['', otherBrowser]) {
      const refused = await complete(await backFrom(authorize, dee), browser);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as Json).message).toContain('started in another browser');
    }
    const back = await backFrom(authorize, dee);
    for (const [how, respelled] of respellings(back.state)) {
      expect((await complete({ ...back, state: respelled }, cookie)).status, how).toBe(401);
    }
    expect((await complete(back, cookie)).status).toBe(202);
    const again = await complete(await backFrom(authorize, dee), cookie);
    expect(again.status).toBe(401);
    expect(((await again.json()) as Json).message).toContain('already completed');
  });

  it('answers Bencher’s 402 for a provider that is not configured', async () => {
    expect((await bench.call('GET', '/v0/auth/google')).status).toBe(402);
    const post = await bench.call('POST', '/v0/auth/google', { body: { code: 'c', state: 's' } });
    expect(post.status).toBe(402);
    expect(((await post.json()) as Json).message).toBe('Google OAuth2 is not configured');
  });
});
