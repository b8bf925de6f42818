import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { estimateChatPromptTokens, reservedPromptTokens } from '../src/tenancy/estimate.js';
import { type ChatRequest, requestedChoices, requestedOutputTokens } from '../src/wire/chat.js';
import { METERED_CONTEXT, METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';
import { NO_USAGE, OVER_REPORT } from './support/metering-upstream.js';

const BUDGET = 300;
const user = (content: unknown) => ({ role: 'user', content });
const hi = [user('hi')];
const filler = 'x'.repeat(2048);
const bigSchema = { type: 'object', description: filler, properties: { answer: { type: 'string' } } };
const bigTool = { type: 'function', function: { name: 'lookup', description: filler, parameters: bigSchema } };
const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
const tokens = (count: number) => Array.from({ length: count }, (_, i) => i);

/** 'capped': served with the output cut to what the budget leaves, which it then spends to the last token. */
type Outcome = 200 | 'capped' | 400 | 429;
interface Shape {
  path: string;
  body: Record<string, unknown>;
  outcome: Outcome;
}

const chat = (body: Record<string, unknown>, outcome: Outcome): Shape => ({
  path: '/v1/chat/completions',
  body: { model: METERED_MODEL, messages: hi, ...body },
  outcome,
});
const messages = (body: Record<string, unknown>, outcome: Outcome): Shape => ({
  path: '/v1/messages',
  body: { model: METERED_MODEL, messages: hi, max_tokens: 20, ...body },
  outcome,
});
const embeddings = (input: unknown, outcome: Outcome): Shape => ({
  path: '/v1/embeddings',
  body: { model: METERED_MODEL, input },
  outcome,
});

/**
 * Every request shape against a key with a 300-token budget: refused when not even its prompt and one output
 * token fit, else served and charged within it (output cut to what is left).
 */
const SHAPES: Record<string, Shape> = {
  'chat: max_tokens within the budget': chat({ max_tokens: 20 }, 200),
  'chat: max_tokens absent (capped at what the budget leaves)': chat({}, 'capped'),
  'chat: max_completion_tokens over the budget': chat({ max_completion_tokens: 1000 }, 'capped'),
  'chat: max_completion_tokens wins over a small max_tokens': chat(
    { max_tokens: 10, max_completion_tokens: 1000 },
    'capped',
  ),
  'chat: n = 4 reserved four times': chat({ max_tokens: 20, n: 4 }, 200),
  'chat: n = 128': chat({ max_tokens: 20, n: 128 }, 200),
  'chat: n = 128 streamed': chat({ max_tokens: 20, n: 128, stream: true }, 200),
  'chat: best_of': chat({ max_tokens: 20, best_of: 8 }, 400),
  'chat: stream without stream_options': chat({ max_tokens: 20, stream: true }, 200),
  'chat: stream with include_usage off': chat(
    { max_tokens: 20, stream: true, stream_options: { include_usage: false } },
    200,
  ),
  'chat: tools of 2 KB': chat({ max_tokens: 20, tools: [bigTool] }, 429),
  'chat: tool_choice naming a 2 KB function': chat(
    { max_tokens: 20, tool_choice: { type: 'function', function: { name: filler } } },
    429,
  ),
  'chat: response_format with a 2 KB schema': chat(
    { max_tokens: 20, response_format: { type: 'json_schema', json_schema: { name: 'a', schema: bigSchema } } },
    429,
  ),
  'chat: assistant tool call arguments of 2 KB': chat(
    {
      max_tokens: 20,
      messages: [
        user('hi'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: JSON.stringify({ filler }) } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'done' },
      ],
    },
    429,
  ),
  'chat: a refusal part of 2 KB': chat(
    { max_tokens: 20, messages: [user('hi'), { role: 'assistant', content: [{ type: 'refusal', refusal: filler }] }] },
    429,
  ),
  'chat: an image part': chat({ max_tokens: 20, messages: [user([image])] }, 429),
  'chat: an upstream that reports no usage': chat({ max_tokens: 20, messages: [user(NO_USAGE)] }, 200),
  'chat: an upstream reporting more than the reservation': chat({ max_tokens: 20, messages: [user(OVER_REPORT)] }, 200),
  'chat: a stream that reports no usage': chat({ max_tokens: 20, stream: true, messages: [user(NO_USAGE)] }, 200),
  'embeddings: a few texts': embeddings(['a', 'b', 'c'], 200),
  'embeddings: 100 texts': embeddings(
    Array.from({ length: 100 }, () => 'some text'),
    429,
  ),
  'embeddings: a token array': embeddings(tokens(50), 200),
  'embeddings: 10 token arrays': embeddings(
    Array.from({ length: 10 }, () => tokens(50)),
    429,
  ),
  'embeddings: an upstream that reports no usage': embeddings(NO_USAGE, 200),
  'messages: max_tokens within the budget': messages({}, 200),
  'messages: max_tokens over the budget': messages({ max_tokens: 1000 }, 'capped'),
  'messages: streamed': messages({ stream: true }, 200),
  'messages: tools of 2 KB': messages(
    { tools: [{ name: 'lookup', description: filler, input_schema: { type: 'object' } }] },
    429,
  ),
  'messages: an output format with a 2 KB schema': messages(
    { output_config: { format: { type: 'json_schema', schema: bigSchema } } },
    429,
  ),
  'messages: an image': messages(
    {
      messages: [user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }])],
    },
    429,
  ),
  'messages: a stream that reports no usage': messages({ stream: true, messages: [user(NO_USAGE)] }, 200),
  'count_tokens: free': {
    path: '/v1/messages/count_tokens',
    body: { model: METERED_MODEL, messages: hi },
    outcome: 200,
  },
};

/** What a request is charged when the upstream reports no usage, or more than it reserved: everything it reserved. */
function reservation(shape: Shape): number {
  if (shape.path === '/v1/embeddings') return Buffer.byteLength(String(shape.body.input)) + 2;
  const body = shape.body as unknown as ChatRequest;
  const request: ChatRequest =
    shape.path === '/v1/messages' ? { ...body, max_completion_tokens: body.max_tokens ?? null } : body;
  return (
    reservedPromptTokens(estimateChatPromptTokens(request), METERED_CONTEXT) +
    requestedChoices(request) * (requestedOutputTokens(request) ?? 0)
  );
}

describeEachDialect('budgets against every request shape', ({ url }) => {
  let gateway: MeteredGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('each shape on a 300-token key is refused before the upstream, or served and charged within the budget', async () => {
    gateway = await startMeteredGateway(url());
    const outcomes: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [name, shape] of Object.entries(SHAPES)) {
      const key = await gateway.newKey(BUDGET);
      gateway.upstream.reported.length = 0;
      const response = await gateway.post(shape.path, key.secret, shape.body);
      const text = await response.text();
      const sent = JSON.stringify(shape.body);
      const chargedReservation = sent.includes(NO_USAGE) || sent.includes(OVER_REPORT);
      const served = shape.outcome === 200 || shape.outcome === 'capped';
      const charged =
        !served || shape.path.endsWith('count_tokens')
          ? 0
          : chargedReservation
            ? reservation(shape)
            : gateway.upstream.reported.reduce((a, b) => a + b, 0);
      await expect.poll(() => gateway?.periodUsed(key.id), { timeout: 3_000 }).toBe(charged);
      const streamed = shape.body.stream === true && served;
      outcomes[name] = {
        status: response.status,
        withinBudget: charged <= BUDGET,
        spentToTheLastToken: charged === BUDGET,
        usageShownToClient: streamed ? text.includes('"usage"') : undefined,
      };
      expected[name] = {
        status: served ? 200 : shape.outcome,
        withinBudget: true,
        spentToTheLastToken: shape.outcome === 'capped',
        usageShownToClient: streamed ? shape.path === '/v1/messages' : undefined,
      };
      if (!served) expect(gateway.upstream.reported, name).toEqual([]);
    }
    expect(outcomes).toEqual(expected);
  });
});
