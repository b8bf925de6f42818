import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginGuard, mailboxOf } from '../src/auth/login-guard.js';
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

  it('holds strangers to the mailbox and overall caps, never an address its owner followed a link from', () => {
    const guard = new LoginGuard(limits, 60_000);
    guard.followed('Owner@x.org', 'home', 0);
    const strangers = Array.from({ length: 6 }, (_, i) => guard.hit(`owner+${i}@x.org`, `stranger${i}`, 1));
    expect(strangers.map((wait) => wait === undefined)).toEqual([true, true, true, true, true, false]);
    expect([1, 2, 3].map(() => guard.hit('owner@x.org', 'home', 2))).toEqual([undefined, undefined, undefined]);
    expect(guard.hit('owner@x.org', 'home', 2)).toBe(3600); // its own pair limit still holds
    expect([1, 2, 3].map((i) => guard.hit(`other${i}@x.org`, `s${i}`, 3))).toEqual([undefined, undefined, undefined]);
    expect(guard.hit('another@x.org', 'elsewhere', 4)).toBe(3600); // eight from strangers in all
    expect(guard.hit('owner@x.org', 'cafe', 4, true)).toBeUndefined(); // from a browser the owner signed in with
    guard.followed('owner@x.org', 'laptop', 0);
    expect(guard.hit('owner@x.org', 'laptop', 59_999)).toBeUndefined();
    expect(guard.hit('owner@x.org', 'laptop', 60_001)).toBeGreaterThan(0); // remembered for a minute only
    expect(guard.hit('owner@x.org', 'home', 3_600_002)).toBeUndefined();
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
    const owner = 'courage@nowhere.com';
    expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1);
    const [first] = await mailsTo(bench, /^courage@/);
    expect((await bench.call('POST', '/v0/auth/confirm', { body: { token: codeOf(first?.body ?? '') } })).status).toBe(
      200,
    );

    const strangers: number[] = [];
    for (let address = 1; address <= 30; address++) {
      const email = address % 2 ? `COURAGE+${address}@nowhere.com` : owner;
      strangers.push((await postFrom(bench.base, `127.0.2.${address}`, '/v0/auth/login', { email })).status);
    }
    // The owner's first request counted against the mailbox too (their address was not known then).
    expect(strangers.filter((status) => status === 202)).toHaveLength(19);
    expect(strangers.slice(19).every((status) => status === 429)).toBe(true);

    for (let i = 0; i < 5; i++) {
      expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    }
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1 + 5 + 9);
  });

  it("never holds the owner's browser, at any address, by the caps strangers exhausted", async () => {
    const owner = 'courage@nowhere.com';
    expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1);
    const [first] = await mailsTo(bench, /^courage@/);
    const confirmed = await bench.call('POST', '/v0/auth/confirm', { body: { token: codeOf(first?.body ?? '') } });
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
    expect((await login('127.0.6.1')).status).toBe(429);
    expect((await login('127.0.6.2', { cookie })).status).toBe(202);
    expect((await login('127.0.6.3', { cookie: 'atrium_bench_browser=forged' })).status).toBe(429);
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
    const owner = 'courage@nowhere.com';
    expect((await bench.call('POST', '/v0/auth/login', { body: { email: owner } })).status).toBe(202);
    await expect.poll(async () => (await mailsTo(bench, /^courage@/)).length).toBe(1);
    const [first] = await mailsTo(bench, /^courage@/);
    expect((await bench.call('POST', '/v0/auth/confirm', { body: { token: codeOf(first?.body ?? '') } })).status).toBe(
      200,
    );
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
