import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginGuard, type LoginVerdict, mailboxOf } from '../src/auth/login-guard.js';
import { openBenchDatabase } from '../src/index.js';
import { postFrom } from './from-address.js';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';

describe('the mailbox an address counts against', () => {
  it.each([
    ['alice@example.org', 'alice@example.org'],
    ['Alice@Example.ORG', 'alice@example.org'],
    ['alice+1@example.org', 'alice@example.org'],
    ['ALICE+a+b@example.org', 'alice@example.org'],
    ['+tag@example.org', '+tag@example.org'],
    ['a.lice@gmail.com', 'a.lice@gmail.com'],
  ])('%s → %s', (email, mailbox) => {
    expect(mailboxOf(email)).toBe(mailbox);
  });
});

describe('the sign-up and log-in limits', () => {
  const limits = {
    loginsPerAddressPerHour: 100,
    loginsPerMailboxPerAddressPerHour: 3,
    loginsPerMailboxPerHour: 5,
    loginsPerHour: 8,
  };

  const waits = (verdict: LoginVerdict) => (verdict.kind === 'mail' ? undefined : verdict.seconds);

  it('holds strangers to the mailbox and overall caps, never an address its owner followed a link from', () => {
    const guard = new LoginGuard(limits, 60_000, 1_000);
    guard.followed('Owner@x.org', 'home', 0);
    const strangers = Array.from({ length: 6 }, (_, i) => guard.hit(`owner+${i}@x.org`, `stranger${i}`, 1));
    expect(strangers.map((verdict) => verdict.kind)).toEqual(['mail', 'mail', 'mail', 'mail', 'mail', 'capped']);
    expect([1, 2, 3].map(() => waits(guard.hit('owner@x.org', 'home', 2)))).toEqual([undefined, undefined, undefined]);
    expect(guard.hit('owner@x.org', 'home', 2)).toEqual({ kind: 'wait', seconds: 3600 }); // its own pair limit
    expect([1, 2, 3].map((i) => waits(guard.hit(`other${i}@x.org`, `s${i}`, 3)))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(guard.hit('another@x.org', 'elsewhere', 4)).toEqual({ kind: 'capped', seconds: 3600 }); // eight in all
    expect(guard.hit('owner@x.org', 'cafe', 4, true).kind).toBe('mail'); // from a browser the owner signed in with
    guard.followed('owner@x.org', 'laptop', 0);
    expect(guard.hit('owner@x.org', 'laptop', 59_999).kind).toBe('mail');
    expect(guard.hit('owner@x.org', 'laptop', 60_001).kind).toBe('capped'); // remembered for a minute only
    expect(guard.hit('owner@x.org', 'home', 3_600_002).kind).toBe('mail');
  });

  it('past the caps, mails a log-in link to a mailbox only when none went there within the hold', () => {
    const guard = new LoginGuard({ ...limits, loginsPerMailboxPerHour: 1 }, 60_000, 1_000);
    const login = (address: string, now: number) =>
      guard.mailsLogin('owner@x.org', guard.hit('Owner+x@x.org', address, now), now);
    expect(login('stranger1', 0)).toBe(true); // within the caps
    expect(login('stranger2', 10)).toBe(false); // capped, and a link went out 10 ms ago
    expect(login('owner-on-a-new-network', 999)).toBe(false); // the link of t=0 is still there, still valid
    expect(login('owner-on-a-new-network', 1_000)).toBe(true); // none within the hold: one more goes out
    expect(login('stranger3', 1_500)).toBe(false);
    expect(guard.mailsLogin('owner@x.org', { kind: 'wait', seconds: 1 }, 5_000)).toBe(false);
  });
});

/** Users and organisations in the server's database. */
async function counts(bench: Bench) {
  const database = await openBenchDatabase(bench.databaseUrl);
  try {
    const count = async (table: 'user' | 'organization') =>
      Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { users: await count('user'), organizations: await count('organization') };
  } finally {
    await database.close();
  }
}

const mailsTo = async (bench: Bench, mailbox: RegExp) =>
  (await outboxOf(bench, 100_000)).filter((m) => mailbox.test(m.recipient));

const codeOf = (body: string) => /^Code: (\S+)$/m.exec(body)?.[1] as string;

const OWNER = 'courage@nowhere.com';

/** The owner asks for a log-in link from the test's own address and follows it (their first mail). */
async function followOwnersLink(bench: Bench) {
  expect((await bench.call('POST', '/v0/auth/login', { body: { email: OWNER } })).status).toBe(202);
  await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1);
  const [first] = await mailsTo(bench, /^courage@/);
  return bench.call('POST', '/v0/auth/confirm', { body: { token: codeOf(first?.body ?? '') } });
}

describeEachDialect('bench sign-up and log-in mail from many client addresses over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  it('mails a mailbox at most 20 sign-ups an hour from 20 addresses and +tags, and creates nothing until a link is followed', async () => {
    const before = await counts(bench);
    const statuses: number[] = [];
    for (let address = 1; address <= 20; address++) {
      for (let i = 0; i < 5; i++) {
        const email = `Target+${address}-${i}@nowhere.com`;
        const answer = await postFrom(bench.base, `127.0.1.${address}`, '/v0/auth/signup', {
          name: 'Flood',
          email,
          i_agree: true,
        });
        statuses.push(answer.status);
        if (answer.status === 429) expect(answer.body.message).toContain('Too many sign-up or log-in requests');
      }
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(80);
    const mails = await mailsTo(bench, /^target\+/i);
    expect(mails).toHaveLength(20);
    expect(await counts(bench)).toEqual(before);

    // The account exists once its link is followed, and only then.
    const confirmed = await bench.call('POST', '/v0/auth/confirm', { body: { token: codeOf(mails[0]?.body ?? '') } });
    expect(confirmed.status).toBe(200);
    const session = (await confirmed.json()) as Json;
    expect(session.user).toMatchObject({ name: 'Flood', slug: 'flood', email: mails[0]?.recipient });
    expect(await counts(bench)).toEqual({ users: before.users + 1, organizations: before.organizations + 1 });
  });

  it('never lets strangers at other addresses lock the owner out of log-in by link', async () => {
    const owner = OWNER;
    expect((await followOwnersLink(bench)).status).toBe(200);

    const strangers: number[] = [];
    for (let address = 1; address <= 30; address++) {
      const email = address % 2 ? `COURAGE+${address}@nowhere.com` : owner;
      strangers.push((await postFrom(bench.base, `127.0.2.${address}`, '/v0/auth/login', { email })).status);
    }
    // Log-ins are never refused for the strangers' caps: past them (the owner's first request counted too, their
    // address was not known then) no more links go out while the last one (address 18's) is young.
    expect(strangers.every((status) => status === 202)).toBe(true);
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1 + 9);

    for (let i = 0; i < 5; i++) {
      expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    }
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1 + 9 + 5);
  });

  it('mails the owner on a new network and a new browser a link that works, however many strangers asked', async () => {
    const owner = 'courage@nowhere.com';
    for (let address = 1; address <= 30; address++) {
      const answer = await postFrom(bench.base, `127.0.7.${address}`, '/v0/auth/login', { email: owner });
      expect(answer.status).toBe(202);
    }
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(20);
    // The owner, at an address and in a browser never seen, asks too: 202, and the newest link in their mailbox
    // (one a stranger caused a moment ago, valid for half an hour more) signs them in.
    expect((await postFrom(bench.base, '127.0.8.1', '/v0/auth/login', { email: owner })).status).toBe(202);
    const mails = await mailsTo(bench, /^courage@/);
    const newest = mails[mails.length - 1];
    const confirmed = await postFrom(bench.base, '127.0.8.1', '/v0/auth/confirm', {
      token: codeOf(newest?.body ?? ''),
    });
    expect(confirmed.status).toBe(200);
  });

  it("never holds the owner's browser, at any address, by the caps strangers exhausted", async () => {
    const owner = OWNER;
    const confirmed = await followOwnersLink(bench);
    expect(confirmed.status).toBe(200);
    const setCookie = confirmed.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^atrium_bench_browser=[\w.-]+; Path=\/v0\/auth; HttpOnly; SameSite=Strict; Max-Age=2592000$/,
    );
    const cookie = setCookie.split(';')[0] as string;

    for (let address = 1; address <= 25; address++) {
      await postFrom(bench.base, `127.0.5.${address}`, '/v0/auth/login', { email: owner });
    }
    const login = (address: string, headers: Record<string, string> = {}) =>
      postFrom(bench.base, address, '/v0/auth/login', { email: owner }, headers);
    const mailed = (await mailsTo(bench, /^courage@/)).length;
    expect((await login('127.0.6.1')).status).toBe(202); // past the caps: no new link while the last is young
    expect((await login('127.0.6.3', { cookie: 'atrium_bench_browser=forged' })).status).toBe(202);
    expect((await login('127.0.6.2', { cookie })).status).toBe(202); // the owner's browser: a new link
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(mailed + 1);
  });

  it('holds one address to 10 requests for one mailbox, without holding the mailbox for other addresses', async () => {
    const login = (address: string) =>
      postFrom(bench.base, address, '/v0/auth/login', { email: 'muriel.bagge@nowhere.com' });
    for (let i = 0; i < 10; i++) expect((await login('127.0.3.1')).status).toBe(202);
    const limited = await login('127.0.3.1');
    expect(limited.status).toBe(429);
    expect((await login('127.0.3.2')).status).toBe(202);
  });
});

describeEachDialect('bench overall cap on sign-up and log-in mail over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { auth: { loginsPerHour: 5 } });
  });
  afterEach(() => bench.close());

  it('answers 429 past the overall cap for strangers, and still mails the owner at their own address', async () => {
    const owner = OWNER;
    expect((await followOwnersLink(bench)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const answer = await postFrom(bench.base, `127.0.4.${i}`, '/v0/auth/signup', {
        name: `Someone ${i}`,
        email: `someone${i}@nowhere.com`,
        i_agree: true,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 429, 429]);
    expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(2);
  });
});
