import { createHmac } from 'node:crypto';
import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mintJwt } from '../src/index.js';
import { at, type Bench, bmf, type Json, outboxOf, startBench } from './harness.js';

const CONSOLE = 'http://console.test';

/** The confirmation token of the newest message to `email` (waiting for it: log-in mails in the background). */
async function confirmationFor(bench: Bench, email: string): Promise<{ token: string; body: string }> {
  let found: { token: string; body: string } | undefined;
  await expect
    .poll(
      async () => {
        const message = (await outboxOf(bench, 20)).find((m) => m.recipient === email);
        const token = message && /^Code: (\S+)$/m.exec(message.body)?.[1];
        found = message && token ? { token, body: message.body } : undefined;
        return found !== undefined;
      },
      { timeout: 5_000, interval: 20 },
    )
    .toBe(true);
  return found as { token: string; body: string };
}

const signup = (bench: Bench, body: Record<string, unknown>) =>
  bench.call('POST', '/v0/auth/signup', { body: { i_agree: true, ...body } });

const confirm = (bench: Bench, token: string) => bench.call('POST', '/v0/auth/confirm', { body: { token } });

/** A JWT with the given header and claims, signed with `secret` (to forge what the server must refuse). */
function signed(header: Record<string, unknown>, claims: Record<string, unknown>, secret: string): string {
  const body = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describeEachDialect('bench sign-up and log-in by emailed link over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { consoleUrl: CONSOLE });
  });
  afterEach(() => bench.close());

  it('signs up, mails a console link, confirms once for a session that works, with a personal organisation', async () => {
    const response = await signup(bench, { name: 'Le Quack', email: 'quack@nowhere.com' });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ email: 'quack@nowhere.com' });

    const [message] = await outboxOf(bench, 1);
    expect(message).toMatchObject({
      recipient: 'quack@nowhere.com',
      status: 'outbox',
      subject: 'Confirm Bench Signup',
    });
    const { token, body } = await confirmationFor(bench, 'quack@nowhere.com');
    expect(body).toContain(`Confirm: ${CONSOLE}/auth/confirm?token=${token}`);
    expect(body).toContain('Ahoy Le Quack!');

    const confirmed = await confirm(bench, token);
    expect(confirmed.status).toBe(200);
    const session = (await confirmed.json()) as Json;
    expect(Object.keys(session).sort()).toEqual(['creation', 'expiration', 'token', 'user']);
    expect(session.user).toMatchObject({
      name: 'Le Quack',
      slug: 'le-quack',
      email: 'quack@nowhere.com',
      admin: false,
    });
    const days = (Date.parse(session.expiration) - Date.parse(session.creation)) / 86_400_000;
    expect(days).toBe(30);
    const claims = JSON.parse(Buffer.from(session.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ aud: 'client', sub: 'quack@nowhere.com', iss: 'http://localhost:3000/' });

    const me = await bench.json('GET', '/v0/users/le-quack', { token: session.token });
    expect(me.email).toBe('quack@nowhere.com');
    const organizations = await bench.json('GET', '/v0/organizations', { token: session.token });
    expect(organizations.map((o: Json) => [o.name, o.slug])).toEqual([['Le Quack', 'le-quack']]);

    const replayed = await confirm(bench, token);
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as Json).message).toContain('already been used');
  });

  it('refuses sign-ups without agreement, with unknown fields, or for an email that has an account', async () => {
    expect((await signup(bench, { name: 'X', email: 'x@nowhere.com', i_agree: false })).status).toBe(403);
    expect((await signup(bench, { name: 'X', email: 'x@nowhere.com', colour: 'red' })).status).toBe(400);
    expect((await signup(bench, { name: 'X', email: 'not-an-email' })).status).toBe(400);
    expect((await signup(bench, { name: 'Muriel', email: 'muriel.bagge@nowhere.com' })).status).toBe(409);
    expect(await outboxOf(bench)).toEqual([]);
    // A taken slug gets a suffix.
    expect((await signup(bench, { name: 'Muriel Bagge', email: 'other.muriel@nowhere.com' })).status).toBe(202);
    const { token } = await confirmationFor(bench, 'other.muriel@nowhere.com');
    const session = (await (await confirm(bench, token)).json()) as Json;
    expect(session.user.slug).toMatch(/^muriel-bagge-[0-9a-z]{8}$/);
  });

  it('logs in by link, and answers an unknown email exactly the same without mailing anyone', async () => {
    const known = await bench.call('POST', '/v0/auth/login', { body: { email: 'courage@nowhere.com' } });
    const unknown = await bench.call('POST', '/v0/auth/login', { body: { email: 'nobody@nowhere.com' } });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual({ email: 'courage@nowhere.com' });
    expect(await unknown.json()).toEqual({ email: 'nobody@nowhere.com' });
    const { token } = await confirmationFor(bench, 'courage@nowhere.com');
    const session = (await (await confirm(bench, token)).json()) as Json;
    expect(session.user.slug).toBe('courage');
    expect((await bench.call('GET', '/v0/users/courage', { token: session.token })).status).toBe(200);
    expect((await outboxOf(bench)).map((m) => m.recipient)).toEqual(['courage@nowhere.com']);
  });

  it('refuses tampered, unsigned, foreign and misdirected tokens with 401 on every route', async () => {
    await bench.call('POST', '/v0/auth/login', { body: { email: 'courage@nowhere.com' } });
    const { token } = await confirmationFor(bench, 'courage@nowhere.com');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'muriel.bagge@nowhere.com' })).toString('base64url')}.${signature}`;
    expect((await confirm(bench, tampered)).status).toBe(401);
    // The confirmation token is no session, and a session is no confirmation token.
    expect((await bench.call('GET', '/v0/users/courage', { token })).status).toBe(401);
    const session = (await (await confirm(bench, token)).json()) as Json;
    expect((await confirm(bench, session.token)).status).toBe(401);

    const now = Math.floor(Date.now() / 1000);
    const good = { aud: 'client', iat: now, exp: now + 600, iss: 'http://localhost:3000/', sub: 'courage@nowhere.com' };
    const secret = 'DO_NOT_USE_THIS_IN_PRODUCTION';
    expect((await bench.call('GET', '/v0/users/courage', { token: mintJwt(good, secret) })).status).toBe(200);
    const refused = {
      'alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(good)).toString('base64url')}.`,
      'alg HS512': signed({ alg: 'HS512', typ: 'JWT' }, good, secret),
      'wrong issuer': mintJwt({ ...good, iss: 'https://bencher.dev/' }, secret),
      'wrong audience': mintJwt({ ...good, aud: 'invite' }, secret),
      expired: mintJwt({ ...good, exp: now - 5 }, secret),
      'no expiry': signed({ alg: 'HS256', typ: 'JWT' }, { ...good, exp: undefined }, secret),
      'another secret': mintJwt(good, 'another secret, not this server'),
    };
    for (const [what, bad] of Object.entries(refused)) {
      for (const path of ['/v0/users/courage', '/v0/organizations', '/v0/projects']) {
        expect((await bench.call('GET', path, { token: bad })).status, `${what} on ${path}`).toBe(401);
      }
    }
  });

  it('carries an invitation into sign-up and log-in, and a claim into sign-up', async () => {
    const org = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: 'Bagge Farm' } });
    const invite = async (email: string) => {
      await bench.json('POST', `/v0/organizations/${org.slug}/members`, {
        token: bench.muriel,
        body: { email, role: 'member' },
        status: 202,
      });
      const [message] = await outboxOf(bench, 1);
      return /^Invite code: (\S+)$/m.exec(message?.body ?? '')?.[1] as string;
    };
    const members = async () =>
      ((await bench.json('GET', `/v0/organizations/${org.slug}/members`, { token: bench.muriel })) as Json[])
        .map((m) => m.email)
        .sort();

    const forNewcomer = await invite('newcomer@nowhere.com');
    expect((await signup(bench, { name: 'Someone', email: 'else@nowhere.com', invite: forNewcomer })).status).toBe(403);
    expect((await signup(bench, { name: 'Newcomer', email: 'newcomer@nowhere.com', invite: forNewcomer })).status).toBe(
      202,
    );
    const newcomer = (await (
      await confirm(bench, (await confirmationFor(bench, 'newcomer@nowhere.com')).token)
    ).json()) as Json;
    const theirs = await bench.json('GET', '/v0/organizations', { token: newcomer.token });
    expect(theirs.map((o: Json) => o.slug)).toEqual([org.slug]);

    const forCourage = await invite('courage@nowhere.com');
    expect(
      (await bench.call('POST', '/v0/auth/login', { body: { email: 'courage@nowhere.com', invite: forCourage } }))
        .status,
    ).toBe(202);
    expect(await members()).toEqual(['courage@nowhere.com', 'muriel.bagge@nowhere.com', 'newcomer@nowhere.com']);
    expect(
      (await bench.call('POST', '/v0/auth/login', { body: { email: 'courage@nowhere.com', invite: 'x.y.z' } })).status,
    ).toBe(400);

    const run = await bench.json('POST', '/v0/run', {
      body: {
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ fib: { latency: 1 } })],
        context: { 'bencher.dev/v0/repo/name': 'orphan' },
      },
    });
    const orphan = run.project.organization as string;
    expect((await signup(bench, { name: 'Claimer', email: 'claimer@nowhere.com', claim: orphan })).status).toBe(202);
    const claimer = (await (
      await confirm(bench, (await confirmationFor(bench, 'claimer@nowhere.com')).token)
    ).json()) as Json;
    const claimed = await bench.json('GET', `/v0/organizations/${orphan}`, { token: claimer.token });
    expect(claimed.claimed).not.toBeNull();
    expect((await bench.json('GET', '/v0/organizations', { token: claimer.token })).length).toBe(1);
    expect((await signup(bench, { name: 'Late', email: 'late@nowhere.com', claim: orphan })).status).toBe(409);
  });

  it('answers GET / with null, as Bencher does', async () => {
    const root = await fetch(`${bench.base}/`, { headers: { accept: 'application/json' } });
    expect(root.status).toBe(200);
    expect(await root.text()).toBe('null');
    const curl = await fetch(`${bench.base}/`, { headers: { accept: '*/*' } });
    expect(await curl.text()).toBe('null');
  });
});

describeEachDialect('bench sessions and confirmation links expire', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { auth: { sessionTtlSeconds: 1, confirmTtlSeconds: 1 } });
  });
  afterEach(() => bench.close());

  it('a session stops working when it expires, and so does an unused link', async () => {
    await bench.call('POST', '/v0/auth/login', { body: { email: 'courage@nowhere.com' } });
    const { token } = await confirmationFor(bench, 'courage@nowhere.com');
    await bench.call('POST', '/v0/auth/login', { body: { email: 'muriel.bagge@nowhere.com' } });
    const unused = (await confirmationFor(bench, 'muriel.bagge@nowhere.com')).token;
    const session = (await (await confirm(bench, token)).json()) as Json;
    expect((await bench.call('GET', '/v0/users/courage', { token: session.token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await bench.call('GET', '/v0/users/courage', { token: session.token });
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as Json).message).toContain('expired');
    expect((await confirm(bench, unused)).status).toBe(401);
  });
});

describeEachDialect('bench sign-up and log-in guard', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { auth: { loginsPerAddressPerHour: 14 } });
  });
  afterEach(() => bench.close());

  it('answers 429 past 10 requests per email per hour, and past the limit per client address', async () => {
    const login = (email: string) => bench.call('POST', '/v0/auth/login', { body: { email } });
    for (let i = 0; i < 10; i += 1) expect((await login('courage@nowhere.com')).status).toBe(202);
    const limited = await login('courage@nowhere.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3_000);
    expect((await login('COURAGE@nowhere.com')).status).toBe(429);
    for (let i = 0; i < 2; i += 1) expect((await login(`other${i}@nowhere.com`)).status).toBe(202);
    expect((await login('fresh@nowhere.com')).status).toBe(429);
    expect((await signup(bench, { name: 'Fresh', email: 'fresh@nowhere.com' })).status).toBe(429);
  });
});
