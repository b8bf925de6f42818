import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { closeGracefully } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../src/index.js';
import { findApiKey } from '../src/storage/api-keys.js';
import { type FixedUpstream, startFixedUpstream, VLLM_STREAM } from './support/fixed-upstream.js';
import { seedTenant } from './support/tenancy.js';

const MODEL = 'acme/chat';
const OTHER = 'acme/other';
const messages = [{ role: 'user' as const, content: 'hi' }];

/** A recorded vLLM answer, except that a prompt saying "slow" gets one chunk and then silence. */
function upstreamAnswer(request: IncomingMessage, body: string, response: ServerResponse): void {
  if (request.url === '/tokenize') {
    response.writeHead(200, { 'content-type': 'application/json' });
    return void response.end('{"count":3,"max_model_len":4096}');
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  if (!body.includes('slow')) return void response.end(VLLM_STREAM);
  response.write(VLLM_STREAM.slice(0, VLLM_STREAM.indexOf('\n\n', VLLM_STREAM.indexOf('Paris')) + 2));
}

describe('/v1/messages under keys, allowlists, budgets and accounting', () => {
  let dataDir: string;
  let upstream: FixedUpstream;
  let app: FastifyInstance;
  let base: string;
  let tenant: Awaited<ReturnType<typeof seedTenant>>;
  let close: () => Promise<void>;
  let database: Awaited<ReturnType<typeof openInferenceDatabase>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'atrium-anthropic-tenancy-'));
    const url = `sqlite:${join(dataDir, 'inference.db')}`;
    upstream = await startFixedUpstream(upstreamAnswer);
    database = await openInferenceDatabase(url);
    tenant = await seedTenant(database.db, {}, Date.now());
    const config = inferenceConfigSchema.parse({
      port: 0,
      database: url,
      auth: { demo: false },
      models: [MODEL, OTHER].map((id) => ({
        id,
        contextLength: 4096,
        backend: { type: 'upstream', replicas: [upstream.origin] },
      })),
    });
    app = await buildInferenceApp(config, { logger: silentLogger, dataDir, accessLog: false });
    base = await listen(app);
    close = async () => {
      await closeGracefully(app, 2_000);
      await database.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newKey = (input: Parameters<typeof tenant.key>[0]) => tenant.key(input, [MODEL, OTHER], Date.now());
  const clientFor = (secret: string, options: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) =>
    new Anthropic({ baseURL: base, apiKey: secret, maxRetries: 0, ...options });
  const used = async (id: string) => (await findApiKey(database.db, id))?.period_used;

  it('a budget the request would exceed is a 429 rate_limit_error the SDK does not retry', async () => {
    // The prompt counts 3 tokens: with one output token it needs 4.
    const { secret } = await newKey({ alias: 'small', budgetTokens: 3, resetPeriod: 'week' });
    let calls = 0;
    const client = clientFor(secret, {
      maxRetries: 2,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await client.messages.create({ model: MODEL, max_tokens: 16, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const refused = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(refused.headers?.get('x-should-retry')).toBe('false');
    expect(refused.headers?.get('retry-after')).toBe('60');
    expect(refused.headers?.get('x-atrium-budget-reset')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(refused.message).toMatch(/would exceed the token budget.*needs at least 4 tokens.*3 of 3 are left/);
    expect(calls).toBe(1);
  });

  it('the model allowlist applies to messages, count_tokens and the Anthropic model list', async () => {
    const { secret } = await newKey({ alias: 'only chat', allowedModels: [MODEL] });
    const client = clientFor(secret);
    expect((await client.models.list()).data.map((m) => m.id)).toEqual([MODEL]);
    const hidden = await client.messages.create({ model: OTHER, max_tokens: 16, messages }).catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(Anthropic.NotFoundError);
    const count = await client.messages.countTokens({ model: OTHER, messages }).catch((e: unknown) => e);
    expect(count).toBeInstanceOf(Anthropic.NotFoundError);
    expect(await client.messages.countTokens({ model: MODEL, messages })).toEqual({ input_tokens: 3 });
  });

  it('a finished stream is billed its usage; count_tokens is free', async () => {
    const { secret, key } = await newKey({ alias: 'billed', budgetTokens: 10_000, resetPeriod: 'day' });
    const client = clientFor(secret);
    await client.messages.countTokens({ model: MODEL, messages });
    const message = await client.messages.stream({ model: MODEL, max_tokens: 16, messages }).finalMessage();
    expect(message.usage).toMatchObject({ input_tokens: 14, output_tokens: 2 });
    await expect.poll(() => used(key.id), { timeout: 3_000 }).toBe(16);
  });

  it('a client that disconnects mid-stream is billed for what it received', async () => {
    const { secret, key } = await newKey({ alias: 'leaver', budgetTokens: 10_000, resetPeriod: 'day' });
    const controller = new AbortController();
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secret },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 16,
        stream: true,
        messages: [{ role: 'user', content: 'slow' }],
      }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('text_delta')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expect.poll(() => used(key.id), { timeout: 3_000 }).toBe(15);
  });
});
