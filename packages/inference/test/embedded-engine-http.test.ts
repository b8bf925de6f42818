import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_ID, TEST_MODEL_REPLY } from '../src/index.js';
import { TOOLS_DISABLED_MESSAGE } from '../src/wire/chat-validation.js';
import { apiError, postJson, startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const user = (content: string) => [{ role: 'user' as const, content }];

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

describe('gateway over the embedded engine (generated test model, official openai client)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway({ bodyLimit: 1_048_576 });
  }, 60_000);
  afterAll(() => gateway?.close());

  it('lists and retrieves the default model', async () => {
    const list = await gateway.client.models.list();
    expect(list.data).toEqual([
      expect.objectContaining({ id: TEST_MODEL_ID, object: 'model', owned_by: 'atrium', max_model_len: 8192 }),
    ]);
    expect((await gateway.client.models.retrieve(TEST_MODEL_ID)).id).toBe(TEST_MODEL_ID);
    const missing = await apiError(gateway.client.models.retrieve('acme/nothing'));
    expect(missing.status).toBe(404);
    expect(missing.code).toBe('model_not_found');
  });

  it('answers a chat completion with every field of the seed shape', async () => {
    const completion = await gateway.client.chat.completions.create({ model: TEST_MODEL_ID, messages: user('Hi!') });
    expect(Object.keys(completion).sort()).toEqual(
      [
        'id',
        'object',
        'created',
        'model',
        'choices',
        'service_tier',
        'system_fingerprint',
        'usage',
        'prompt_logprobs',
        'prompt_token_ids',
        'prompt_text',
        'kv_transfer_params',
      ].sort(),
    );
    expect(completion.system_fingerprint).toMatch(/^fp_[0-9a-f]{12}$/);
    const [choice] = completion.choices;
    expect(choice?.message).toEqual({
      role: 'assistant',
      content: TEST_MODEL_REPLY,
      refusal: null,
      annotations: null,
      audio: null,
      function_call: null,
      tool_calls: [],
      reasoning: null,
    });
    expect(choice).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      logprobs: null,
      stop_reason: null,
      token_ids: null,
      routed_experts: null,
    });
    expect(completion.model).toBe(TEST_MODEL_ID);
    const usage = completion.usage;
    expect(usage?.completion_tokens).toBeGreaterThan(5);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('streams chunks with the final usage only when asked', async () => {
    const stream = await gateway.client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages: user('Stream please'),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null | undefined;
    const usages: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usages.push(chunk.usage);
      expect(chunk.model).toBe(TEST_MODEL_ID);
    }
    expect(text).toBe(TEST_MODEL_REPLY);
    expect(finish).toBe('stop');
    expect(usages).toHaveLength(1);
    expect(usages[0]).toMatchObject({ completion_tokens: expect.any(Number), prompt_tokens: expect.any(Number) });

    const plain = await postJson(
      gateway.base,
      '/v1/chat/completions',
      JSON.stringify({ model: TEST_MODEL_ID, messages: user('x'), stream: true }),
    );
    expect(plain.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(plain.headers.get('x-request-id')).toBeTruthy();
    expect(plain.headers.get('access-control-allow-origin')).toBe('*');
    const body = await plain.text();
    expect(body).not.toContain('"usage"');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('honours max_tokens (finish_reason length) and stop strings (vLLM stop_reason)', async () => {
    const short = await gateway.client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages: user('a'),
      max_tokens: 3,
    });
    expect(short.choices[0]?.finish_reason).toBe('length');
    expect(short.usage?.completion_tokens).toBe(3);
    const stopped = await gateway.client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages: user('b'),
      stop: [' tiny'],
    });
    expect(stopped.choices[0]?.message.content).toBe('Hello! I am a');
    expect((stopped.choices[0] as unknown as { stop_reason: string }).stop_reason).toBe(' tiny');
  });

  it('constrains output to JSON for response_format json_object and json_schema', async () => {
    const object = await gateway.client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages: user('json'),
      max_tokens: 8,
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    expect(object.choices[0]?.message.content).toMatch(/^\{/);
    const schema = await gateway.client.chat.completions.create({
      model: TEST_MODEL_ID,
      messages: user('json'),
      max_tokens: 24,
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object', properties: { answer: { type: 'string' } } } },
      },
    });
    expect(schema.choices[0]?.message.content).toMatch(/^\{\s*"answer"\s*:\s*"/);
  });

  it('serves more concurrent requests than the engine has sequences', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gateway.client.chat.completions.create({ model: TEST_MODEL_ID, messages: user(`n${i}`) }),
      ),
    );
    expect(answers.map((a) => a.choices[0]?.message.content)).toEqual(Array(6).fill(TEST_MODEL_REPLY));
  });

  it('returns embeddings as base64 (the SDK default) and as floats, with usage', async () => {
    const input = ['the cat sat on the mat', 'the cat sat on the mat', 'blue river fish'];
    const decoded = await gateway.client.embeddings.create({ model: TEST_MODEL_ID, input });
    const floats = await gateway.client.embeddings.create({ model: TEST_MODEL_ID, input, encoding_format: 'float' });
    expect(decoded.data).toHaveLength(3);
    expect(decoded.data[0]?.embedding).toHaveLength(64);
    for (let i = 0; i < 3; i++) {
      const a = decoded.data[i]?.embedding as number[];
      const b = floats.data[i]?.embedding as number[];
      expect(a.map((x) => Math.fround(x))).toEqual(b.map((x) => Math.fround(x)));
    }
    const [same, again, other] = floats.data.map((d) => d.embedding);
    expect(cosine(same as number[], again as number[])).toBeCloseTo(1, 5);
    expect(cosine(same as number[], other as number[])).toBeLessThan(0.9);
    expect(floats.usage.prompt_tokens).toBeGreaterThan(5);
    expect(floats.model).toBe(TEST_MODEL_ID);
    const tokens = await gateway.client.embeddings.create({
      model: TEST_MODEL_ID,
      input: [[300, 301, 302]],
      encoding_format: 'float',
    });
    expect(tokens.usage.prompt_tokens).toBe(3);
  });

  describe('refusals in the OpenAI error envelope', () => {
    it('requires a valid bearer key', async () => {
      const missing = await fetch(`${gateway.base}/v1/models`);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { type: 'authentication_error', code: 'missing_api_key' } });
      const wrong = new OpenAI({ apiKey: `${TEST_KEY}x`, baseURL: `${gateway.base}/v1`, maxRetries: 0 });
      const error = await apiError(wrong.models.list());
      expect([error.status, error.code]).toEqual([401, 'invalid_api_key']);
      expect(JSON.stringify(error.error)).not.toContain(TEST_KEY);
      const alternatives: Record<string, string>[] = [
        { authorization: `bearer ${TEST_KEY}` },
        { 'x-api-key': TEST_KEY },
      ];
      for (const headers of alternatives) {
        expect((await fetch(`${gateway.base}/v1/models`, { headers })).status).toBe(200);
      }
    });

    it('refuses tools on a model served without tool use, with the seed message', async () => {
      const error = await apiError(
        gateway.client.chat.completions.create({
          model: TEST_MODEL_ID,
          messages: user('weather?'),
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        }),
      );
      expect(error.status).toBe(400);
      expect(error.error).toEqual({
        message: TOOLS_DISABLED_MESSAGE,
        type: 'invalid_request_error',
        param: 'tools',
        code: 'tools_not_supported',
      });
    });

    it('refuses an unknown model, a modality the model lacks, and a request over the context length', async () => {
      const unknown = await apiError(
        gateway.client.chat.completions.create({ model: 'acme/none', messages: user('x') }),
      );
      expect([unknown.status, unknown.code]).toEqual([404, 'model_not_found']);
      const image = await apiError(
        gateway.client.chat.completions.create({
          model: TEST_MODEL_ID,
          messages: [
            { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
          ],
        }),
      );
      expect([image.status, image.code, image.param]).toEqual([400, 'unsupported_modality', 'messages[0].content[0]']);
      expect(image.message).toContain(`model '${TEST_MODEL_ID}'`);
      const long = await apiError(
        gateway.client.chat.completions.create({ model: TEST_MODEL_ID, messages: user('x'), max_tokens: 9000 }),
      );
      expect([long.status, long.code]).toEqual([400, 'context_length_exceeded']);
      expect(long.message).toMatch(/maximum context length is 8192 tokens\. However, you requested 9006 tokens/);
    });

    it('refuses embeddings input the API does not allow', async () => {
      const empty = await apiError(gateway.client.embeddings.create({ model: TEST_MODEL_ID, input: '' }));
      expect([empty.status, empty.param]).toEqual([400, 'body.input']);
      const invalidToken = await apiError(
        gateway.client.embeddings.create({ model: TEST_MODEL_ID, input: [[10_000_000]] }),
      );
      expect(invalidToken.status).toBe(400);
      expect(invalidToken.message).toMatch(/token ids below/);
    });

    it.each([
      ['malformed JSON', '{"model":', 400, 'invalid_json'],
      [
        'a string temperature',
        JSON.stringify({ model: TEST_MODEL_ID, messages: user('x'), temperature: 'hot' }),
        400,
        'invalid_request',
      ],
      ['no messages', JSON.stringify({ model: TEST_MODEL_ID, messages: [] }), 400, 'invalid_request'],
      [
        'an oversized body',
        JSON.stringify({ model: TEST_MODEL_ID, messages: user('x'.repeat(1_100_000)) }),
        413,
        'body_too_large',
      ],
    ])('refuses %s', async (_name, body, status, code) => {
      const response = await postJson(gateway.base, '/v1/chat/completions', body);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code, type: 'invalid_request_error' } });
    });

    it('keeps serving after a client abandons a stream', async () => {
      const controller = new AbortController();
      const stream = await gateway.client.chat.completions.create(
        { model: TEST_MODEL_ID, messages: user('leave early'), stream: true },
        { signal: controller.signal },
      );
      for await (const _chunk of stream) {
        controller.abort();
        break;
      }
      const after = await gateway.client.chat.completions.create({
        model: TEST_MODEL_ID,
        messages: user('still there?'),
      });
      expect(after.choices[0]?.message.content).toBe(TEST_MODEL_REPLY);
    });
  });
});
