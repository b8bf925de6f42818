import { describeEachDialect, silentLogger } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { modelSchema } from '../src/config.js';
import { openInferenceDatabase } from '../src/index.js';
import { findApiKey } from '../src/storage/api-keys.js';
import { leaseResource } from '../src/storage/ledger.js';
import { findResource } from '../src/storage/resources.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { usageOfKey } from '../src/storage/usage.js';
import { Admission, type AdmissionRefused, type Ticket } from '../src/tenancy/admission.js';
import { KeyStore } from '../src/tenancy/key-store.js';
import { revokeKey } from '../src/tenancy/keys.js';
import { chargeOf, toMicro } from '../src/tenancy/pricing.js';
import { UsageRecorder } from '../src/tenancy/usage-recorder.js';
import { DAY, seedTenant, T0, withDatabase } from './support/tenancy.js';

const model = modelSchema.parse({
  id: 'acme/m',
  contextLength: 4096,
  backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] },
  pricing: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 }, // 1 and 2 credits per token
});

function gateway(db: Kysely<InferenceDatabase>, clock: { now: number }) {
  const keys = new KeyStore(db, () => clock.now);
  const usage = new UsageRecorder(db, silentLogger, 60_000);
  const admission = new Admission(db, keys, usage, silentLogger, () => clock.now);
  return { keys, usage, admission };
}

async function lookup(keys: KeyStore, secret: string) {
  const key = await keys.lookup(secret);
  if (!key) throw new Error('key not found');
  return key;
}

/** A request of a `prompt`-token bound asking for `output` tokens (none: no output, as embeddings). */
const ask = (prompt: number, output: number) => ({
  promptBound: prompt,
  output: { choices: output === 0 ? 0 : 1, requested: output === 0 ? undefined : output },
});

async function refusal(promise: Promise<unknown>): Promise<AdmissionRefused> {
  try {
    await promise;
  } catch (error) {
    return error as AdmissionRefused;
  }
  throw new Error('expected a refusal');
}

describeEachDialect('budget admission', ({ dialect, url }) => {
  const withDb = (work: (db: Kysely<InferenceDatabase>) => Promise<void>) => withDatabase(url(), work);

  it('resets the period from the creation anchor at read time (injected clock)', () =>
    withDb(async (db) => {
      const clock = { now: T0 };
      const { keys, admission } = gateway(db, clock);
      const tenant = await seedTenant(db);
      const { secret } = await tenant.key({ alias: 'daily', budgetTokens: 100, resetPeriod: 'day' });
      const key = await lookup(keys, secret);
      const first = await admission.admit({ key, model, ...ask(40, 20) });
      first.settle(30, 20);
      // 50 left: the next request gets the output that fits instead of a refusal.
      const capped = await admission.admit({ key, model, ...ask(40, 20) });
      expect({ cap: capped.outputCap, reserved: capped.reserved }).toEqual({
        cap: 10,
        reserved: { prompt: 40, output: 10 },
      });
      capped.settle(40, 5);
      const reset = new Date(T0 + DAY).toISOString().replace('.000Z', 'Z');
      const headers = { 'x-should-retry': 'false', 'retry-after': '60', 'x-atrium-budget-reset': reset };
      const wouldExceed = await refusal(admission.admit({ key, model, ...ask(40, 20) }));
      expect(wouldExceed).toMatchObject({ status: 429, code: 'insufficient_quota', headers });
      expect(wouldExceed.message).toMatch(/^This request would exceed the token budget/);
      expect(wouldExceed.message).toContain('needs at least 41 tokens');
      expect(wouldExceed.message).toContain('5 of 100 are left');
      expect(wouldExceed.message).toContain(`resets at ${reset}`);
      (await admission.admit({ key, model, ...ask(4, 20) })).settle(4, 1);
      const spent = await refusal(admission.admit({ key, model, ...ask(1, 1) }));
      expect(spent).toMatchObject({ status: 429, code: 'insufficient_quota', headers });
      expect(spent.message).toMatch(/^You exceeded the token budget of this API key: 100 of 100 tokens used/);
      // retry-after is never more than a minute, however far the reset.
      clock.now = T0 + DAY - 30_000;
      expect((await refusal(admission.admit({ key, model, ...ask(1, 1) }))).headers['retry-after']).toBe('30');
      clock.now = T0 + DAY - 1;
      await expect(admission.admit({ key, model, ...ask(40, 20) })).rejects.toThrow(/budget/);
      clock.now = T0 + DAY;
      const next = await admission.admit({ key, model, ...ask(40, 20) });
      next.settle(40, 20);
      await admission.drain();
      expect(await findApiKey(db, key.id)).toMatchObject({
        period_start: T0 + DAY,
        period_used: 60,
        last_used: T0 + DAY,
      });
      // A settlement arriving after its period ended does not touch the new period.
      clock.now = T0 + 2 * DAY - 1;
      const late = await admission.admit({ key, model, ...ask(10, 0) });
      clock.now = T0 + 2 * DAY;
      late.settle(5, 0);
      await admission.drain();
      expect(await findApiKey(db, key.id)).toMatchObject({ period_start: T0 + DAY, period_used: 65 });
    }));

  it('refuses a revoked key, a model outside the allowlist, exhausted credits, and per-minute limits', () =>
    withDb(async (db) => {
      const clock = { now: T0 + 5_000 };
      const { keys, admission } = gateway(db, clock);
      const tenant = await seedTenant(db, { credits: 1000, limits: { requestsPerMinute: 3, tokensPerMinute: 1200 } });
      const { secret, key: row } = await tenant.key({ alias: 'k', allowedModels: ['acme/m'] }, [
        'acme/m',
        'acme/other',
      ]);
      const key = await lookup(keys, secret);
      expect(
        await refusal(admission.admit({ key, model: { ...model, id: 'acme/other' }, ...ask(1, 1) })),
      ).toMatchObject({ status: 404, code: 'model_not_found' });

      // Credits: 1000; a reservation of 300 prompt + 200 output costs 700.
      const ticket = await admission.admit({ key, model, ...ask(300, 200) });
      expect(ticket.headers).toEqual({
        'x-ratelimit-limit-requests': '3',
        'x-ratelimit-remaining-requests': '2',
        'x-ratelimit-reset-requests': '55s',
        'x-ratelimit-limit-tokens': '1200',
        'x-ratelimit-remaining-tokens': '700',
        'x-ratelimit-reset-tokens': '55s',
      });
      const credits = await refusal(admission.admit({ key, model, ...ask(300, 200) }));
      expect(credits).toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(credits.message).toMatch(/run out of credits: 300 credits left, this request needs at least 302/);
      expect(credits.headers).toEqual({ 'x-should-retry': 'false' });
      ticket.settle(100, 50); // charges 200: 800 left
      await admission.drain();
      expect((await findResource(db, tenant.resource.id))?.credits_used).toBe(toMicro(200));

      // Tokens per minute: 1200 (the first request settled at 150 tokens; refusals count nothing).
      const tpm = await refusal(admission.admit({ key, model, ...ask(1100, 0) }));
      expect(tpm).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      expect(tpm.message).toMatch(/tokens per minute \(TPM\).*limit 1200, used 150, this request needs at least 1100/);
      expect(tpm.headers).toEqual({ 'retry-after': '55' });
      // A request that can never fit the limit is not told to wait.
      const never = await refusal(admission.admit({ key, model, ...ask(1200, 1) }));
      expect(never).toMatchObject({ status: 413, code: 'request_too_large', headers: { 'x-should-retry': 'false' } });
      expect(never.message).toMatch(/limit 1200, this request needs at least 1201.*waiting does not help/);

      // Requests per minute: 3 (one counted so far, refusals are not counted).
      const tickets: Ticket[] = [];
      for (let i = 0; i < 2; i++) tickets.push(await admission.admit({ key, model, ...ask(1, 1) }));
      const rpm = await refusal(admission.admit({ key, model, ...ask(1, 1) }));
      expect(rpm).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      expect(rpm.message).toMatch(/requests per minute \(RPM\).*limit 3, used 3/);
      clock.now = T0 + 60_000;
      tickets.push(await admission.admit({ key, model, ...ask(1, 1) }));
      for (const t of tickets) t.settle(1, 1);

      // A revocation reaches admission when the process's lease of the key goes back (within a second).
      await revokeKey(db, tenant.member, row.id, clock.now);
      await admission.drain();
      expect(await refusal(admission.admit({ key, model, ...ask(1, 1) }))).toMatchObject({
        status: 401,
        code: 'invalid_api_key',
      });
      expect(await keys.lookup(secret)).toBeUndefined();
    }));

  it('caps a request without max_tokens at what the budget, TPM limit and credits leave; counts its prompt only when the bound does not fit', () =>
    withDb(async (db) => {
      const clock = { now: T0 + 5_000 };
      const { keys, usage, admission } = gateway(db, clock);
      const tenant = await seedTenant(db, { credits: 1000, limits: { tokensPerMinute: 1200 } });
      const key = await lookup(keys, (await tenant.key({ alias: 'sdk', budgetTokens: 2000 })).secret);
      const counted: number[] = [];
      const counter = (count: number | undefined) => async (timeoutMs: number) => {
        counted.push(timeoutMs);
        return count;
      };
      const noLimit = { choices: 1, requested: undefined };
      // Wants 400 + 3696: counted (100), then 100 + 2 × 450 credits = 1000, the credits left.
      const sdk = await admission.admit({ key, model, promptBound: 400, output: noLimit, countPrompt: counter(100) });
      expect([sdk.outputCap, sdk.reserved, counted]).toEqual([450, { prompt: 100, output: 450 }, [1_000]]);
      sdk.settle(0, 0);
      // A bound that fits is not counted.
      const agent = await admission.admit({ key, model, ...ask(30, 20), countPrompt: counter(5) });
      expect([agent.outputCap, counted.length]).toEqual([20, 1]);
      agent.settle(0, 0);
      // A count that fails (or times out) leaves the bound: 400 + 2 × 300 credits.
      const fallback = await admission.admit({
        key,
        model,
        promptBound: 400,
        output: noLimit,
        countPrompt: counter(undefined),
      });
      expect([fallback.outputCap, fallback.reserved.prompt]).toEqual([300, 400]);
      fallback.settle(0, 0);
      await admission.drain();
      // With exact counting off, the tokenizer is never asked.
      const off = new Admission(db, keys, usage, silentLogger, () => clock.now, {
        exactPromptCounting: false,
        tokenizeTimeoutMs: 1_000,
      });
      const uncounted = await off.admit({ key, model, promptBound: 400, output: noLimit, countPrompt: counter(100) });
      expect([uncounted.outputCap, counted.length]).toEqual([300, 2]);
      uncounted.settle(0, 0);
      await off.close();
    }));

  it('a resource lease computed just before the minute turned counts in the newer minute', () =>
    withDb(async (db) => {
      const tenant = await seedTenant(db, { limits: { requestsPerMinute: 2 } });
      const minute = T0 - (T0 % 60_000);
      expect(await leaseResource(db, tenant.resource.id, minute + 60_000, [0, 1, 5])).toBeDefined();
      expect((await leaseResource(db, tenant.resource.id, minute, [0, 1, 5]))?.left).toEqual([
        expect.any(Number),
        0,
        Number.POSITIVE_INFINITY,
      ]);
      expect(await leaseResource(db, tenant.resource.id, minute, [0, 1, 5])).toBeUndefined();
      expect(await findResource(db, tenant.resource.id)).toMatchObject({
        window_minute: minute + 60_000,
        window_requests: 2,
        window_tokens: 10,
      });
    }));

  it('limits concurrent requests of a resource', () =>
    withDb(async (db) => {
      const clock = { now: T0 };
      const { keys, admission } = gateway(db, clock);
      const tenant = await seedTenant(db, { limits: { concurrentRequests: 2 } });
      const key = await lookup(keys, (await tenant.key({ alias: 'c' })).secret);
      const a = await admission.admit({ key, model, ...ask(1, 1) });
      await admission.admit({ key, model, ...ask(1, 1) });
      const refused = await refusal(admission.admit({ key, model, ...ask(1, 1) }));
      expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', headers: { 'retry-after': '1' } });
      a.settle(1, 1);
      await expect(admission.admit({ key, model, ...ask(1, 1) })).resolves.toBeDefined();
    }));

  it('a concurrency limit holds across gateways; a stopped process stops counting when its lease expires', async () => {
    const first = await openInferenceDatabase(url());
    const second = dialect === 'postgres' ? await openInferenceDatabase(url()) : first;
    try {
      const clock = { now: T0 };
      const [a, b] = [gateway(first.db, clock), gateway(second.db, clock)];
      const tenant = await seedTenant(first.db, { limits: { concurrentRequests: 3 } });
      // A process that died holding a slot: its lease expired a moment ago.
      await first.db
        .insertInto('inference_slot_lease')
        .values({ resource_id: tenant.resource.id, holder: 'gone', slots: 3, expires: T0 - 1 })
        .execute();
      const key = await lookup(a.keys, (await tenant.key({ alias: 'c' })).secret);
      const admit = (g: typeof a) => g.admission.admit({ key, model, ...ask(1, 1) });
      const running = [await admit(a), await admit(a), await admit(b)];
      expect(await refusal(admit(b))).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      expect(await refusal(admit(a))).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      running[0]?.settle(1, 1);
      // The slot went back to its process's lease; the other process gets it once that lease shrinks.
      expect(await refusal(admit(b))).toMatchObject({ code: 'rate_limit_exceeded' });
      await a.admission.drain();
      running.push(await admit(b));
      for (const ticket of running) ticket.settle(1, 1);
      await Promise.all([a.admission.close(), b.admission.close()]);
      expect(await first.db.selectFrom('inference_slot_lease').select(['holder', 'slots']).execute()).toEqual([
        { holder: 'gone', slots: 3 },
      ]);
    } finally {
      await first.close();
      if (second !== first) await second.close();
    }
  });

  it('200 concurrent admissions from two gateways (connection pools) never overdraw the budget; accounting is exact', async () => {
    const first = await openInferenceDatabase(url());
    // Two pools on PostgreSQL, as two gateway processes have. better-sqlite3 is synchronous: a second
    // connection in the same process would block the event loop while waiting for the first one's lock.
    const second = dialect === 'postgres' ? await openInferenceDatabase(url()) : first;
    try {
      const clock = { now: T0 };
      const gateways = [gateway(first.db, clock), gateway(second.db, clock)] as const;
      const tenant = await seedTenant(first.db);
      const { secret, key: row } = await tenant.key({ alias: 'race', budgetTokens: 50 * 46, resetPeriod: 'month' });
      const key = await lookup(gateways[0].keys, secret);
      const request = (i: number) =>
        gateways[i % 2 === 0 ? 0 : 1].admission.admit({ key, model, ...ask(30, 16) }).then((ticket) => {
          // The upstream produces at most the cap it was told.
          const completion = Math.min(16, ticket.outputCap);
          ticket.settle(14, completion);
          return { completion, credits: chargeOf(model.pricing, 14, completion) };
        });
      const outcomes = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => request(i)));
      await Promise.all(gateways.map((g) => g.admission.drain()));
      // Then one request at a time, alternating between the gateways, until one is refused.
      for (let i = 0; ; i++) {
        const [outcome] = await Promise.allSettled([request(i)]);
        outcomes.push(outcome as (typeof outcomes)[number]);
        if (outcome?.status === 'rejected') break;
      }
      await Promise.all(gateways.map((g) => g.admission.drain()));
      const served = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      expect(
        refused.every((o) =>
          ['insufficient_quota', 'rate_limit_exceeded'].includes((o.reason as AdmissionRefused).code),
        ),
      ).toBe(true);
      const charged = served.reduce((sum, s) => sum + 14 + s.completion, 0);
      const stored = await findApiKey(first.db, row.id);
      expect(stored?.period_used).toBe(charged);
      expect(charged).toBeLessThanOrEqual(50 * 46);
      // Spent to the last request that could fit once nothing was in flight (a 30-token bound and one output token).
      expect(charged).toBeGreaterThan(50 * 46 - 31);
      await Promise.all(gateways.map((g) => g.usage.close()));
      const usage = await usageOfKey(first.db, row.id, 0, T0 + DAY);
      expect(usage).toEqual([
        {
          hour: T0,
          model: 'acme/m',
          requests: served.length,
          prompt_tokens: served.length * 14,
          completion_tokens: charged - served.length * 14,
          credits: served.reduce((sum, s) => sum + s.credits, 0),
        },
      ]);
    } finally {
      await first.close();
      if (second !== first) await second.close();
    }
  });
});
