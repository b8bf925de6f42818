import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailureThrottle, SignInThrottle } from '../src/http/sign-in-throttle.js';
import { seedTenant } from './support/tenancy.js';
import { startUiApp, type UiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

const MIN = 60_000;

describe('FailureThrottle (3 failures in 10 minutes)', () => {
  type Step = [at: number, event: 'fail' | 'reset'];
  const cases: Array<{ name: string; steps: Step[]; at: number; wait: number }> = [
    { name: 'no failures', steps: [], at: 0, wait: 0 },
    {
      name: 'two failures',
      steps: [
        [0, 'fail'],
        [1, 'fail'],
      ],
      at: 2,
      wait: 0,
    },
    {
      name: 'three failures refuse until the first leaves the window',
      steps: [
        [0, 'fail'],
        [1, 'fail'],
        [2, 'fail'],
      ],
      at: 3,
      wait: 7,
    },
    {
      name: 'refused up to the end of the window',
      steps: [
        [0, 'fail'],
        [1, 'fail'],
        [2, 'fail'],
      ],
      at: 9.5,
      wait: 0.5,
    },
    {
      name: 'free once the window slid past the first',
      steps: [
        [0, 'fail'],
        [1, 'fail'],
        [2, 'fail'],
      ],
      at: 10,
      wait: 0,
    },
    {
      name: 'old failures do not count',
      steps: [
        [0, 'fail'],
        [11, 'fail'],
        [12, 'fail'],
      ],
      at: 13,
      wait: 0,
    },
    {
      name: 'the latest three count',
      steps: [
        [0, 'fail'],
        [5, 'fail'],
        [6, 'fail'],
        [7, 'fail'],
      ],
      at: 8,
      wait: 7,
    },
    {
      name: 'a reset forgets',
      steps: [
        [0, 'fail'],
        [1, 'fail'],
        [2, 'reset'],
        [3, 'fail'],
      ],
      at: 4,
      wait: 0,
    },
    {
      name: 'failures after a reset count again',
      steps: [
        [0, 'fail'],
        [1, 'reset'],
        [2, 'fail'],
        [3, 'fail'],
        [4, 'fail'],
      ],
      at: 5,
      wait: 7,
    },
  ];
  it.each(cases)('$name', ({ steps, at, wait }) => {
    const throttle = new FailureThrottle(3, 10 * MIN);
    for (const [t, event] of steps) {
      if (event === 'fail') throttle.recordFailure('k', t * MIN);
      else throttle.reset('k');
    }
    expect(throttle.retryAfterMs('k', at * MIN)).toBe(wait * MIN);
    expect(throttle.retryAfterMs('other', at * MIN)).toBe(0);
  });
});

describe('SignInThrottle (15 minutes: 5 per email and client address, 25 per email, 20 per client address)', () => {
  type Attempt = [email: string, address: string, ok: boolean];
  const fails = (n: number, email: string, address: string): Attempt[] =>
    Array.from({ length: n }, () => [email, address, false]);
  /** `perAddress` failures on `email` from each of `addresses` addresses ip1, ip2, … */
  const spread = (email: string, addresses: number, perAddress: number): Attempt[] =>
    Array.from({ length: addresses }, (_, i) => fails(perAddress, email, `ip${i + 1}`)).flat();
  const cases: Array<{ name: string; attempts: Attempt[]; check: [string, string]; refused: boolean }> = [
    { name: '4 failures on an email', attempts: fails(4, 'a', 'ip1'), check: ['a', 'ip1'], refused: false },
    { name: '5 failures on an email', attempts: fails(5, 'a', 'ip1'), check: ['a', 'ip1'], refused: true },
    {
      name: 'the email from another address is not locked out',
      attempts: fails(5, 'a', 'ip1'),
      check: ['a', 'ip2'],
      refused: false,
    },
    { name: 'another email from that address', attempts: fails(5, 'a', 'ip1'), check: ['b', 'ip1'], refused: false },
    {
      name: '24 failures on an email from 6 addresses',
      attempts: spread('a', 6, 4),
      check: ['a', 'ip9'],
      refused: false,
    },
    {
      name: '25 failures on an email from 5 addresses',
      attempts: spread('a', 5, 5),
      check: ['a', 'ip9'],
      refused: true,
    },
    {
      name: '20 failures from one address over several emails',
      attempts: ['a', 'b', 'c', 'd', 'e'].flatMap((e) => fails(4, e, 'ip1')),
      check: ['f', 'ip1'],
      refused: true,
    },
    {
      name: 'success clears the email from that address',
      attempts: [...fails(4, 'a', 'ip1'), ['a', 'ip1', true], ...fails(4, 'a', 'ip1')],
      check: ['a', 'ip1'],
      refused: false,
    },
    {
      name: 'success clears the email overall',
      attempts: [...spread('a', 6, 4), ['a', 'ip9', true], ...fails(4, 'a', 'ip8')],
      check: ['a', 'ip9'],
      refused: false,
    },
    {
      name: 'success does not clear the address',
      attempts: [
        ...['a', 'b', 'c', 'd'].flatMap((e) => fails(4, e, 'ip1')),
        ['z', 'ip1', true],
        ...fails(4, 'e', 'ip1'),
      ],
      check: ['f', 'ip1'],
      refused: true,
    },
  ];
  it.each(cases)('$name', ({ attempts, check, refused }) => {
    const throttle = new SignInThrottle();
    for (const [email, address, ok] of attempts) {
      if (ok) throttle.succeeded(email, address);
      else throttle.failed(email, address, 0);
    }
    expect(throttle.retryAfterMs(check[0], check[1], MIN) > 0).toBe(refused);
  });
});

// Both tests sign in from 127.0.0.1: 19 failures in all, one short of the client address's limit.
describe('password sign-in over HTTP', () => {
  let app: UiApp<Awaited<ReturnType<typeof seedTenant>>>;
  beforeAll(async () => {
    app = await startUiApp((db) => seedTenant(db, {}, Date.now()));
  }, 60_000);
  afterAll(() => app?.close());

  async function failFiveTimes(client: UiClient, email: string) {
    for (let i = 0; i < 5; i++) {
      const response = await client.signIn(email, 'wrong');
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('Wrong email or password.');
    }
  }

  it('refuses an email after 5 failures with a 429 page, alike for unknown accounts, even the right password', async () => {
    const client = new UiClient(app.base);
    const { pi } = app.seeded;
    await failFiveTimes(client, pi.email);
    const refused = await client.signIn(pi.email, 'pi-password');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    const message = 'Too many failed sign-in attempts. Try again in 15 minutes.';
    expect(await refused.text()).toContain(message);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('atrium_ui='))).toBe(false);

    await failFiveTimes(client, 'nobody@example.org');
    const unknown = await client.signIn(' Nobody@Example.org ', 'whatever');
    expect(unknown.status).toBe(429);
    expect(await unknown.text()).toContain(message);
  });

  it('a successful sign-in clears the failures of that email', async () => {
    const client = new UiClient(app.base);
    const { member } = app.seeded;
    for (let i = 0; i < 4; i++) expect((await client.signIn(member.email, 'wrong')).status).toBe(401);
    const ok = await client.signIn(member.email, 'm-password');
    expect(ok.status).toBe(303);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith('atrium_ui='))).toBe(true);
    await client.post('/ui/signout', {});
    await failFiveTimes(client, member.email);
    expect((await client.signIn(member.email, 'm-password')).status).toBe(429);
  });
});
