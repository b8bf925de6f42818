import type { ServerResponse } from 'node:http';
import { closeGracefully, type Database } from '@atrium/core';
import { describeEachDialect, listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterEach, expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../src/index.js';
import { findApiKey } from '../src/storage/api-keys.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { usageOfKey } from '../src/storage/usage.js';
import { revokeKey } from '../src/tenancy/keys.js';
import { recordedVllm, startFixedUpstream, VLLM_COMPLETION, VLLM_STREAM } from './support/fixed-upstream.js';
import { apiError } from './support/gateway.js';
import { seedTenant, type TenantOptions } from './support/tenancy.js';

const MODEL = 'acme/chat';
const OTHER = 'acme/other';
const messages = [{ role: 'user' as const, content: 'hi' }];
// biome-ignore lint/suspicious/noExplicitAny: response bodies checked field by field
const json = async (response: Response): Promise<any> => response.json();
/** The gateway's estimate for `messages` (8 + 8 + 4 + 2 bytes: template, role, content) plus max_tokens 16. */
const RESERVED = 38;

describeEachDialect('API keys through the gateway', ({ dialect, url }) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  async function setup(tenantOptions: TenantOptions = {}, respond?: Parameters<typeof startFixedUpstream>[0]) {
    const upstream = await startFixedUpstream(respond);
    cleanup.push(upstream.close);
    const config = inferenceConfigSchema.parse({
      port: 0,
      database: url(),
      auth: { demo: false },
      models: [MODEL, OTHER].map((id) => ({
        id,
        contextLength: 4096,
        backend: { type: 'upstream', replicas: [upstream.origin] },
      })),
    });
    const database: Database<InferenceDatabase> = await openInferenceDatabase(url());
    cleanup.push(database.close);
    const tenant = await seedTenant(database.db, tenantOptions, Date.now());
    const gateway = async () => {
      const app: FastifyInstance = await buildInferenceApp(config, {
        logger: silentLogger,
        dataDir: '/nonexistent',
        accessLog: false,
      });
      const base = await listen(app);
      const stop = () => closeGracefully(app, 2_000);
      cleanup.push(stop);
      return { app, base, stop };
    };
    const key = (input: Parameters<typeof tenant.key>[0]) => tenant.key(input, [MODEL, OTHER], Date.now());
    return { upstream, db: database.db, tenant, gateway, key };
  }

  const chat = (base: string, secret: string, body: Record<string, unknown>) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model: MODEL, messages, max_tokens: 16, ...body }),
    });

  it('200 concurrent requests (stream and not) on two gateways stay within the budget; accounting is exact', async () => {
    // As vLLM does, the answer's completion stops at the max_tokens the gateway sent (its cap near the end).
    const { db, gateway, key } = await setup({}, (request, body, response) => {
      const cap = (JSON.parse(body) as { max_tokens?: number }).max_tokens ?? 16;
      if (request.url !== '/v1/chat/completions' || body.includes('"stream":true') || cap >= 16)
        return recordedVllm(request, body, response);
      const completion = {
        ...VLLM_COMPLETION,
        usage: { prompt_tokens: 14, completion_tokens: cap, total_tokens: 14 + cap },
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completion));
    });
    const budget = 50 * RESERVED;
    const { secret, key: row } = await key({ alias: 'race', budgetTokens: budget, resetPeriod: 'day' });
    // Two gateways on PostgreSQL (each with its own pool, as two processes); SQLite: one writer process.
    const bases = dialect === 'postgres' ? [(await gateway()).base, (await gateway()).base] : [(await gateway()).base];
    const lastUsage = (text: string) =>
      JSON.parse(
        text
          .split('\n\n')
          .filter((e) => e.includes('"usage":{'))
          .at(-1)
          ?.slice(6) ?? '{}',
      ).usage;
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const stream = i % 2 === 1;
        const response = await chat(
          bases[i % bases.length] ?? '',
          secret,
          stream ? { stream, stream_options: { include_usage: true } } : {},
        );
        const text = await response.text();
        if (response.status !== 200) return { status: response.status, text, tokens: 0 };
        const usage = stream ? lastUsage(text) : JSON.parse(text).usage;
        return { status: 200, text, tokens: usage.prompt_tokens + usage.completion_tokens };
      }),
    );
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(served.length).toBeGreaterThanOrEqual(50);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(429);
      // The budget, or (rarely) what was left taken by concurrent requests while this one was admitted.
      expect(['insufficient_quota', 'rate_limit_exceeded']).toContain(JSON.parse(r.text).error.code);
    }
    const servedTokens = served.reduce((sum, r) => sum + r.tokens, 0);
    // Settlements run when each response closes: wait for the last ones.
    await expect.poll(async () => (await findApiKey(db, row.id))?.period_used).toBe(servedTokens);
    // The estimate (18) is above the actual prompt (14), so the budget is never exceeded at all.
    expect(servedTokens).toBeLessThanOrEqual(budget);
    for (const close of cleanup.splice(2).reverse()) await close(); // stop the gateways: flush usage
    const usage = await usageOfKey(db, row.id, 0, Date.now() + 3_600_000);
    expect(usage.reduce((sum, u) => sum + u.requests, 0)).toBe(served.length);
    expect(usage.reduce((sum, u) => sum + u.prompt_tokens + u.completion_tokens, 0)).toBe(servedTokens);
  }, 60_000);

  it('the official client sees insufficient_quota and does not retry; 429 headers', async () => {
    const { upstream, gateway, key } = await setup();
    const { secret } = await key({ alias: 'small', budgetTokens: 20, resetPeriod: 'week' });
    const { base } = await gateway();
    let calls = 0;
    const client = new OpenAI({
      apiKey: secret,
      baseURL: `${base}/v1`,
      maxRetries: 2,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await apiError(client.chat.completions.create({ model: MODEL, messages, max_tokens: 16 }));
    expect(error.status).toBe(429);
    expect(error.code).toBe('insufficient_quota');
    expect(error.type).toBe('insufficient_quota');
    // Its prompt bound (22) and one output token do not fit; this upstream cannot count it more exactly.
    expect(error.message).toMatch(
      /would exceed the token budget of this API key: it needs at least 23 tokens .* and 20 of 20 are left in the current period .* The budget resets at \S+Z\./,
    );
    expect(calls).toBe(1);
    expect(upstream.requests.filter((path) => path !== '/tokenize')).toEqual([]);
    const raw = await chat(base, secret, {});
    expect(raw.headers.get('x-should-retry')).toBe('false');
    // Never a retry-after a client would hang on for days: the reset time has a header of its own.
    expect(raw.headers.get('retry-after')).toBe('60');
    const reset = Date.parse(raw.headers.get('x-atrium-budget-reset') ?? '');
    expect(reset).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it('per-minute limits: x-ratelimit-* headers on success, rate_limit_exceeded with Retry-After, retryable', async () => {
    const { gateway, key } = await setup({ limits: { requestsPerMinute: 1 } });
    const { secret } = await key({ alias: 'rpm' });
    const { base } = await gateway();
    const admitted = await chat(base, secret, {});
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('x-ratelimit-limit-requests')).toBe('1');
    expect(admitted.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(admitted.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+s$/);
    expect(admitted.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    const limited = await chat(base, secret, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-should-retry')).toBeNull();
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await json(limited)).error).toMatchObject({ type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
  });

  it('resource credits exhausted', async () => {
    // 80 micro-credits at the default price of 1 credit per million tokens; each request reserves 34, uses 30.
    const { gateway, key } = await setup({ credits: 0.00008 });
    const { secret } = await key({ alias: 'poor' });
    const { base } = await gateway();
    expect((await chat(base, secret, {})).status).toBe(200);
    expect((await chat(base, secret, {})).status).toBe(200);
    const refused = await chat(base, secret, {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect((await json(refused)).error.message).toMatch(/run out of credits/);
  });

  it('the model allowlist filters /v1/models and hides other models; revoked and unknown keys get 401', async () => {
    const { gateway, key, db, tenant } = await setup();
    const { secret, key: row } = await key({ alias: 'only chat', allowedModels: [MODEL] });
    const { secret: all } = await key({ alias: 'all' });
    const { base } = await gateway();
    const list = async (s: string) =>
      (await json(await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${s}` } }))).data.map(
        (m: { id: string }) => m.id,
      );
    expect(await list(secret)).toEqual([MODEL]);
    expect(await list(all)).toEqual([MODEL, OTHER]);
    const hidden = await chat(base, secret, { model: OTHER });
    expect(hidden.status).toBe(404);
    expect((await json(hidden)).error).toMatchObject({ code: 'model_not_found', param: 'model' });
    const single = await fetch(`${base}/v1/models/${OTHER}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(single.status).toBe(404);

    await revokeKey(db, tenant.member, row.id);
    const revoked = await chat(base, secret, {});
    expect(revoked.status).toBe(401);
    const body = await revoked.text();
    expect(JSON.parse(body).error.code).toBe('invalid_api_key');
    expect(body).not.toContain(secret.slice(3, 12));
    const unknown = await chat(base, `sk-${'x'.repeat(40)}`, {});
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).not.toContain('xxxx');
  });

  it('a stream the client abandons is billed with the last usage seen', async () => {
    const firstTwoChunks = `${VLLM_STREAM.split('\n\n').slice(0, 2).join('\n\n')}\n\n`;
    const { gateway, key, db } = await setup({}, (_request, _body, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(firstTwoChunks); // running usage: 14 prompt + 1 completion
      // ...and never finishes.
    });
    const { secret, key: row } = await key({ alias: 'leaver', budgetTokens: 1000 });
    const { base } = await gateway();
    const controller = new AbortController();
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model: MODEL, messages, max_tokens: 16, stream: true }),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    let seen = '';
    while (reader && !seen.includes('Paris')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    // The process's lease of the key goes back to the database within about a second.
    await expect.poll(async () => (await findApiKey(db, row.id))?.period_used, { timeout: 3_000 }).toBe(15);
  });
});
