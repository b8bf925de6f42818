import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';

const SIGNUPS = 100;

describeEachDialect('bench simultaneous sign-ups with one name over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { auth: { loginsPerAddressPerHour: 10_000 } });
  });
  afterEach(() => bench.close());

  it(`gives ${SIGNUPS} simultaneous sign-ups of one name distinct slugs, never a 500`, async () => {
    const emails = Array.from({ length: SIGNUPS }, (_, i) => `flood${i}@nowhere.com`);
    const signups = await Promise.all(
      emails.map((email) =>
        bench.call('POST', '/v0/auth/signup', { body: { name: 'Flood', email, i_agree: true } }).then((r) => r.status),
      ),
    );
    expect(signups.filter((status) => status !== 202)).toEqual([]);
    const codes = (await outboxOf(bench, SIGNUPS)).map((m) => /^Code: (\S+)$/m.exec(m.body)?.[1] as string);
    expect(codes).toHaveLength(SIGNUPS);

    const confirmed = await Promise.all(
      codes.map(async (token) => {
        const response = await bench.call('POST', '/v0/auth/confirm', { body: { token } });
        return { status: response.status, body: (await response.json()) as Json };
      }),
    );
    expect(confirmed.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
    const slugs = new Set(confirmed.map((answer) => answer.body.user.slug as string));
    expect(slugs.size).toBe(SIGNUPS);
    expect(slugs.has('flood')).toBe(true);
    for (const slug of slugs) expect(slug).toMatch(/^flood(-[0-9a-z]{8})?$/);
  });
});
