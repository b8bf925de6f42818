import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';

interface GitHubAccount {
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * GitHub's three OAuth endpoints on loopback, under GitHub Enterprise's paths: the authorize page redirects at once
 * with a code for `next` account, the token endpoint checks the client secret, `/api/v3/user` and `/user/emails`
 * answer for the access token.
 */
async function startGitHub() {
  const state = { next: undefined as GitHubAccount | undefined, codes: new Map<string, GitHubAccount>() };
  const tokens = new Map<string, GitHubAccount>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://github.test');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const code = `code-${state.codes.size}`;
      state.codes.set(code, state.next as GitHubAccount);
      const back = new URL(url.searchParams.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') as string);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const account = state.codes.get(form.get('code') ?? '');
        if (form.get('client_secret') !== 'gh-secret' || !account) return json(200, { error: 'bad_verification_code' });
        state.codes.delete(form.get('code') as string);
        const token = `gho_${tokens.size}`;
        tokens.set(token, account);
        json(200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
      });
      return;
    }
    const account = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!account) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/api/v3/user') return json(200, { login: account.login, name: account.name });
    if (url.pathname === '/api/v3/user/emails') return json(200, account.emails);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, base, close: () => server.close() };
}

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

  /** Through the provider as a browser would: authorization URL, the provider's redirect, then the code. */
  async function signIn(account: GitHubAccount, query = '') {
    const { url: authorize } = await bench.json('GET', `/v0/auth/github${query}`);
    expect(authorize).toMatch(new RegExp(`^${github.base}/login/oauth/authorize\\?client_id=gh-client&`));
    github.state.next = account;
    const redirected = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(redirected.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe('http://console.test/auth/github');
    return bench.call('POST', '/v0/auth/github', {
      body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    });
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

  it('answers Bencher’s 402 for a provider that is not configured', async () => {
    expect((await bench.call('GET', '/v0/auth/google')).status).toBe(402);
    const post = await bench.call('POST', '/v0/auth/google', { body: { code: 'c', state: 's' } });
    expect(post.status).toBe(402);
    expect(((await post.json()) as Json).message).toBe('Google OAuth2 is not configured');
  });
});
