import { describeEachDialect } from '@atrium/core/testing';
import OpenAI from 'openai';
import { afterEach, expect, it } from 'vitest';
import { METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';

const BUDGET = 300;
const long = 'x'.repeat(2048);

/** A Responses request and the chat request it translates to, which admission must treat alike. */
const PAIRS: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['an output limit within the budget', { input: 'hi', max_output_tokens: 20 }, { max_completion_tokens: 20 }],
  ['an output limit over the budget', { input: 'hi', max_output_tokens: 1000 }, { max_completion_tokens: 1000 }],
  ['no output limit', { input: 'hi' }, {}],
  [
    'a prompt larger than the budget',
    { input: long, max_output_tokens: 20 },
    { max_completion_tokens: 20, messages: [{ role: 'user', content: long }] },
  ],
];

describeEachDialect('/v1/responses under keys, budgets and accounting', ({ url }) => {
  let gateway: MeteredGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('the usage of a response, streamed or not, is accounted to the key; the output limit goes upstream', async () => {
    gateway = await startMeteredGateway(url());
    const key = await gateway.newKey(10_000);
    const client = new OpenAI({ apiKey: key.secret, baseURL: `${gateway.base}/v1`, maxRetries: 0 });
    const response = await client.responses.create({ model: METERED_MODEL, input: 'hi', max_output_tokens: 20 });
    const final = await client.responses
      .stream({ model: METERED_MODEL, input: 'hi again', max_output_tokens: 30 })
      .finalResponse();
    const [first, second] = gateway.upstream.reported;
    expect([response.usage?.total_tokens, final.usage?.total_tokens]).toEqual([first, second]);
    expect(gateway.upstream.bodies.map((body) => JSON.parse(body).max_completion_tokens)).toEqual([20, 30]);
    await expect.poll(() => gateway?.periodUsed(key.id), { timeout: 3_000 }).toBe((first ?? 0) + (second ?? 0));
  });

  it('a 300-token key answers each request as it answers the same chat completion, refusal included', async () => {
    gateway = await startMeteredGateway(url());
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [name, responses, chat] of PAIRS) {
      const asResponse = await gateway.post('/v1/responses', (await gateway.newKey(BUDGET)).secret, {
        model: METERED_MODEL,
        ...responses,
      });
      const asChat = await gateway.post('/v1/chat/completions', (await gateway.newKey(BUDGET)).secret, {
        model: METERED_MODEL,
        messages: [{ role: 'user', content: 'hi' }],
        ...chat,
      });
      // The keys were made a few milliseconds apart, so their budgets reset at slightly different times.
      const shape = async (answer: Response) => ({
        status: answer.status,
        error:
          answer.status === 200 ? undefined : (await answer.text()).replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<reset>'),
        shouldRetry: answer.headers.get('x-should-retry'),
        retryAfter: answer.headers.get('retry-after'),
      });
      answers[name] = await shape(asResponse);
      expected[name] = await shape(asChat);
    }
    expect(answers).toEqual(expected);
    expect(Object.values(answers).map((answer) => (answer as { status: number }).status)).toContain(429);
  });
});
