import Anthropic from '@anthropic-ai/sdk';
import { describeEachDialect } from '@atrium/core/testing';
import OpenAI from 'openai';
import { afterEach, expect, it } from 'vitest';
import { apiError } from './support/gateway.js';
import { METERED_CONTEXT, METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';
import { answerOf } from './support/metering-upstream.js';

const BUDGET = 100_000;
/** The prompt of an SDK call that sends no max_tokens; the upstream answers it in 3,000 tokens. */
const messages = [{ role: 'user' as const, content: `Summarise the report. ${answerOf(3_000)}` }];

describeEachDialect('budgets usable to the last token, through the official SDKs', ({ dialect, url }) => {
  const gateways: MeteredGateway[] = [];
  afterEach(async () => {
    for (const gateway of gateways.splice(0).reverse()) await gateway.close();
  });
  const start = async () => {
    const gateway = await startMeteredGateway(url());
    gateways.push(gateway);
    return gateway;
  };
  const openai = (gateway: MeteredGateway, secret: string, onCall?: () => void) =>
    new OpenAI({
      apiKey: secret,
      baseURL: `${gateway.base}/v1`,
      maxRetries: 2,
      fetch: (input, init) => {
        onCall?.();
        return fetch(input, init);
      },
    });

  it('requests without max_tokens spend a 100,000-token key to the end; the last one stops at its cap', async () => {
    const gateway = await start();
    const key = await gateway.newKey(BUDGET);
    let calls = 0;
    const client = openai(gateway, key.secret, () => calls++);
    const finishes: string[] = [];
    let spent = 0;
    for (;;) {
      const answer = await client.chat.completions.create({ model: METERED_MODEL, messages }).catch((e) => e);
      if (answer instanceof OpenAI.APIError) {
        expect(answer.status).toBe(429);
        expect(answer.message).toMatch(/You exceeded the token budget of this API key: 100000 of 100000/);
        expect(answer.headers?.get('x-should-retry')).toBe('false');
        expect(Number(answer.headers?.get('retry-after'))).toBeLessThanOrEqual(60);
        expect(answer.headers?.get('x-atrium-budget-reset')).toMatch(/Z$/);
        break;
      }
      finishes.push(answer.choices[0]?.finish_reason);
      spent += answer.usage?.total_tokens ?? 0;
    }
    // Each answer ends by itself until the last, which is cut at what the budget left.
    expect(finishes.slice(0, -1).every((f) => f === 'stop')).toBe(true);
    expect(finishes.at(-1)).toBe('length');
    expect(spent).toBe(BUDGET);
    expect(await gateway.periodUsed(key.id)).toBe(BUDGET);
    // The refusal was not retried.
    expect(calls).toBe(finishes.length + 1);
  });

  it("Anthropic's max_tokens over what is left is cut there: stop_reason max_tokens", async () => {
    const gateway = await start();
    const key = await gateway.newKey(300);
    const client = new Anthropic({ baseURL: gateway.base, apiKey: key.secret, maxRetries: 0 });
    const message = await client.messages.create({
      model: METERED_MODEL,
      max_tokens: 4_000,
      messages: [{ role: 'user', content: 'Write the whole module.' }],
    });
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.input_tokens + message.usage.output_tokens).toBe(300);
    const sent = JSON.parse(gateway.upstream.bodies.at(-1) ?? '{}');
    expect(sent.max_completion_tokens).toBe(message.usage.output_tokens);
  });

  it('a tokens-per-minute limit below the context: capped, not refused for ever; a prompt it can never fit is a 413', async () => {
    const gateway = await start();
    const limit = 2_000;
    expect(limit).toBeLessThan(METERED_CONTEXT);
    const key = await gateway.newKey(undefined, { limits: { tokensPerMinute: limit } });
    let calls = 0;
    const client = openai(gateway, key.secret, () => calls++);
    const answer = await client.chat.completions.create({
      model: METERED_MODEL,
      messages: [{ role: 'user', content: 'Write a long story.' }],
    });
    expect(answer.choices[0]?.finish_reason).toBe('length');
    expect(answer.usage?.total_tokens).toBe(limit);
    // The minute's tokens are spent: a rate limit that passes at the next minute, retry-after honest.
    const raw = await gateway.post('/v1/chat/completions', key.secret, { model: METERED_MODEL, messages });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(raw.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(raw.headers.get('x-should-retry')).toBeNull();
    // A prompt of more tokens than the limit (about 2,500 by the tokenizer) can never pass: 413, not retried.
    calls = 0;
    const tooLarge = await apiError(
      client.chat.completions.create({
        model: METERED_MODEL,
        messages: [{ role: 'user', content: 'x'.repeat(10_000) }],
        max_tokens: 10,
      }),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.code).toBe('request_too_large');
    expect(tooLarge.message).toMatch(/tokens per minute \(TPM\) limit .*waiting does not help/);
    expect(calls).toBe(1);
  });

  it('concurrent requests without max_tokens on one key from two gateways never overdraw it', async () => {
    const gateway = await start();
    // Two app instances on one PostgreSQL database; SQLite has one writer process.
    const second = dialect === 'postgres' ? await start() : gateway;
    const key = await gateway.newKey(20_000);
    const clients = [openai(gateway, key.secret), openai(second, key.secret)];
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (clients[i % 2] as OpenAI).chat.completions
          .create({ model: METERED_MODEL, messages }, { maxRetries: 0 })
          .then((a) => a.usage?.total_tokens ?? 0)
          .catch((error: unknown) => {
            expect(error).toBeInstanceOf(OpenAI.APIError);
            expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
            return 0;
          }),
      ),
    );
    const spent = answers.reduce((a, b) => a + b, 0);
    expect(spent).toBeLessThanOrEqual(20_000);
    await Promise.all([gateway.app.admission.drain(), second.app.admission.drain()]);
    expect(await gateway.periodUsed(key.id)).toBe(spent);
  });
});
