import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { estimateChatPromptTokens, reservedPromptTokens } from '../src/tenancy/estimate.js';
import { MAX_BYTES_PER_TOKEN } from '../src/wire/input-size.js';
import { MAX_JSON_DEPTH } from '../src/wire/json-depth.js';
import { METERED_CONTEXT, METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';
import { HOLD, NO_USAGE } from './support/metering-upstream.js';

const hi = [{ role: 'user', content: 'hi' }];
const countTokens = { model: METERED_MODEL, messages: hi };
const COUNT_TOKENS = '/v1/messages/count_tokens';
/** More text than could fit the model's context at the byte rule. */
const overlong = 'x'.repeat(METERED_CONTEXT * MAX_BYTES_PER_TOKEN + 1);
// biome-ignore lint/suspicious/noExplicitAny: error bodies checked field by field
const json = async (response: Response): Promise<any> => response.json();

/** `{"a":{"a":…}}` with `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/**
 * Stands for a 200-level value in a body, written as text: past the routes' own 64 levels, within the 256 that core's
 * parser lets any JSON body nest (deeper bodies are refused before they are parsed: core's tests).
 */
const DEEP = '<deep>';
const deepText = `${'{"a":'.repeat(199)}{}${'}'.repeat(199)}`;
const withDeep = (body: unknown) => JSON.stringify(body).replace(`"${DEEP}"`, deepText);

describeEachDialect('count_tokens and embeddings limits', ({ url }) => {
  let gateway: MeteredGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('count_tokens needs a key with budget left, costs nothing, counts in the per-minute limit and takes a slot', async () => {
    gateway = await startMeteredGateway(url());
    // A key whose whole budget one request uses: the upstream reports no usage, so the reservation is charged.
    const spend = { model: METERED_MODEL, messages: [{ role: 'user', content: NO_USAGE }], max_tokens: 5 };
    const budget = reservedPromptTokens(estimateChatPromptTokens(spend), METERED_CONTEXT) + spend.max_tokens;
    // Seeding hashes passwords: the three tenants are seeded together.
    const [spent, limited, slotted] = await Promise.all([
      gateway.newKey(budget),
      gateway.newKey(undefined, { limits: { requestsPerMinute: 2 } }),
      gateway.newKey(undefined, { limits: { concurrentRequests: 1 } }),
    ]);
    expect((await gateway.post(COUNT_TOKENS, spent.secret, countTokens)).status).toBe(200);
    expect(await gateway.periodUsed(spent.id)).toBe(0);
    expect((await gateway.post('/v1/chat/completions', spent.secret, spend)).status).toBe(200);
    await expect.poll(() => gateway?.periodUsed(spent.id)).toBe(budget);
    const refused = await gateway.post(COUNT_TOKENS, spent.secret, countTokens);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(await json(refused)).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining(`${budget} of ${budget} tokens used`) },
    });

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await gateway.post(COUNT_TOKENS, limited.secret, countTokens)).status);
    expect(statuses).toEqual([200, 200, 429]);

    // It waits for a concurrency slot like any request.
    const controller = new AbortController();
    const held = await fetch(`${gateway.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${slotted.secret}` },
      body: JSON.stringify({ model: METERED_MODEL, messages: [{ role: 'user', content: HOLD }], stream: true }),
      signal: controller.signal,
    });
    expect(held.status).toBe(200);
    const busy = await gateway.post(COUNT_TOKENS, slotted.secret, countTokens);
    expect(busy.status).toBe(429);
    expect(await json(busy)).toMatchObject({ error: { type: 'rate_limit_error' } });
    controller.abort();
    await expect.poll(async () => (await gateway?.post(COUNT_TOKENS, slotted.secret, countTokens))?.status).toBe(200);
  });

  it('count_tokens and embeddings refuse input that cannot fit the context before the model server sees it', async () => {
    gateway = await startMeteredGateway(url());
    const { secret } = await gateway.newKey(undefined);
    const started = performance.now();
    const count = await gateway.post(COUNT_TOKENS, secret, {
      model: METERED_MODEL,
      messages: [{ role: 'user', content: overlong }],
    });
    expect(count.status).toBe(400);
    expect(await json(count)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages is too long') },
    });
    const text = await gateway.post('/v1/embeddings', secret, { model: METERED_MODEL, input: ['fine', overlong] });
    expect(text.status).toBe(400);
    expect(await json(text)).toMatchObject({
      error: { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'input[1]' },
    });
    const ids = await gateway.post('/v1/embeddings', secret, {
      model: METERED_MODEL,
      input: Array.from({ length: METERED_CONTEXT + 1 }, () => 7),
    });
    expect(ids.status).toBe(400);
    expect(await json(ids)).toMatchObject({
      error: { code: 'context_length_exceeded', param: 'input', message: expect.stringContaining('4097 tokens') },
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(gateway.upstream.requests).toEqual([]);
    // At the limit, both still reach the model server.
    const fits = 'x'.repeat(METERED_CONTEXT * MAX_BYTES_PER_TOKEN - 100);
    expect(
      (await gateway.post(COUNT_TOKENS, secret, { model: METERED_MODEL, messages: [{ role: 'user', content: fits }] }))
        .status,
    ).toBe(200);
    expect((await gateway.post('/v1/embeddings', secret, { model: METERED_MODEL, input: fits })).status).toBe(200);
  });

  it(`refuses JSON nested more than ${MAX_JSON_DEPTH} levels on every route, in its own error shape`, async () => {
    gateway = await startMeteredGateway(url());
    const { secret } = await gateway.newKey(undefined);
    const deep = DEEP;
    const chat = { model: METERED_MODEL, messages: hi, max_tokens: 5 };
    const message = { model: METERED_MODEL, messages: hi, max_tokens: 5 };
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'chat response_format schema',
        '/v1/chat/completions',
        { ...chat, response_format: { type: 'json_schema', json_schema: { name: 'a', schema: deep } } },
        'response_format',
      ],
      [
        'chat tool parameters',
        '/v1/chat/completions',
        { ...chat, tools: [{ type: 'function', function: { name: 'f', parameters: deep } }] },
        'tools',
      ],
      ['chat vLLM extra field', '/v1/chat/completions', { ...chat, guided_json: deep }, 'guided_json'],
      [
        'chat message content part',
        '/v1/chat/completions',
        { ...chat, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', extra: deep }] }] },
        'messages',
      ],
      ['embeddings extra field', '/v1/embeddings', { model: METERED_MODEL, input: 'hi', extra: deep }, 'extra'],
      [
        'messages tool input_schema',
        '/v1/messages',
        { ...message, tools: [{ name: 'f', input_schema: deep }] },
        'tools',
      ],
      [
        'messages tool_use input',
        '/v1/messages',
        {
          ...message,
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: deep }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
          ],
        },
        'messages',
      ],
      [
        'messages output format schema',
        '/v1/messages',
        { ...message, output_config: { format: { type: 'json_schema', schema: deep } } },
        'output_config',
      ],
      [
        'count_tokens tool input_schema',
        COUNT_TOKENS,
        { model: METERED_MODEL, messages: hi, tools: [{ name: 'f', input_schema: deep }] },
        'tools',
      ],
    ];
    const answers: Record<string, unknown> = {};
    for (const [name, path, body] of cases) {
      const response = await gateway.post(path, secret, withDeep(body));
      const error = (await json(response)).error;
      answers[name] = { status: response.status, param: error.param, type: error.type, message: error.message };
    }
    expect(answers).toEqual(
      Object.fromEntries(
        cases.map(([name, path, , param]) => [
          name,
          {
            status: 400,
            param: path.startsWith('/v1/messages') ? undefined : param,
            type: 'invalid_request_error',
            message: `${param}: JSON nested more than ${MAX_JSON_DEPTH} levels deep is not accepted`,
          },
        ]),
      ),
    );
    expect(gateway.upstream.requests).toEqual([]);
    // A schema at the limit passes: the body, response_format, json_schema and the schema's own levels.
    const atLimit = { type: 'json_schema', json_schema: { name: 'a', schema: nested(MAX_JSON_DEPTH - 3) } };
    expect((await gateway.post('/v1/chat/completions', secret, { ...chat, response_format: atLimit })).status).toBe(
      200,
    );
  });
});
