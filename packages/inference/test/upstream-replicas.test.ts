import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineProcess } from '../src/index.js';
import { TEST_MODEL_REPLY } from '../src/index.js';
import { startEngine, type TestModelFile, testModelFile } from './support/engines.js';
import { type FixedUpstream, recordedVllm, startFixedUpstream, VLLM_COMPLETION } from './support/fixed-upstream.js';
import { apiError, postJson, startGateway, type TestGateway } from './support/gateway.js';

const PUBLIC_ID = 'acme/tiny-remote';
const SERVED_NAME = 'engine/tiny';
const user = (content: string) => [{ role: 'user' as const, content }];

describe('gateway over two engine replicas (separate OpenAI-compatible processes)', () => {
  let model: TestModelFile;
  let replicas: EngineProcess[];
  let gateway: TestGateway;

  beforeAll(async () => {
    model = testModelFile();
    replicas = await Promise.all([startEngine(model.path, SERVED_NAME), startEngine(model.path, SERVED_NAME)]);
    gateway = await startGateway({
      models: [
        {
          id: PUBLIC_ID,
          contextLength: 2048,
          capabilities: { embeddings: true },
          backend: { type: 'upstream', replicas: replicas.map((r) => r.origin), model: SERVED_NAME },
        },
      ],
      routing: { healthIntervalMs: 200, ejectMs: 60_000 },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    model?.remove();
  });

  it('chats, streams and embeds under the public model id', async () => {
    const completion = await gateway.client.chat.completions.create({ model: PUBLIC_ID, messages: user('hi') });
    expect([completion.model, completion.choices[0]?.message.content]).toEqual([PUBLIC_ID, TEST_MODEL_REPLY]);
    const stream = await gateway.client.chat.completions.create({
      model: PUBLIC_ID,
      messages: user('hi'),
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) {
      expect(chunk.model).toBe(PUBLIC_ID);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe(TEST_MODEL_REPLY);
    const embedding = await gateway.client.embeddings.create({ model: PUBLIC_ID, input: 'hello' });
    expect(embedding.data[0]?.embedding).toHaveLength(64);
  });

  it('fails over when a replica is killed mid-test, without a failed request', async () => {
    const [victim] = replicas;
    const results = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        if (i === 3) {
          victim?.child.kill('SIGKILL');
          await victim?.exited;
        }
        const answer = await gateway.client.chat.completions.create({ model: PUBLIC_ID, messages: user(`q${i}`) });
        return answer.choices[0]?.message.content;
      }),
    );
    expect(results).toEqual(Array(12).fill(TEST_MODEL_REPLY));
    for (let i = 0; i < 4; i++) {
      const answer = await gateway.client.chat.completions.create({ model: PUBLIC_ID, messages: user('after') });
      expect(answer.choices[0]?.message.content).toBe(TEST_MODEL_REPLY);
    }
  });

  it('answers 503 when no replica is left', async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    const error = await apiError(
      gateway.client.chat.completions.create({ model: PUBLIC_ID, messages: user('anyone?') }),
    );
    expect(error.status).toBe(503);
    expect(error.error).toMatchObject({ type: 'server_error', code: 'upstream_unavailable' });
    expect(error.message).toContain(`model '${PUBLIC_ID}' is unavailable`);
  });
});

describe('gateway over a recorded vLLM upstream', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;
  let nextStatus: { status: number; body: string } | undefined;
  let lastBody = '';

  beforeAll(async () => {
    upstream = await startFixedUpstream((request, body, response) => {
      lastBody = body;
      if (nextStatus) {
        response.writeHead(nextStatus.status, { 'content-type': 'application/json' });
        response.end(nextStatus.body);
        return;
      }
      recordedVllm(request, body, response);
    });
    gateway = await startGateway({
      models: [
        {
          id: 'qwen/qwen3-32b',
          contextLength: 32_768,
          capabilities: { embeddings: true },
          backend: { type: 'upstream', replicas: [upstream.origin], model: 'Qwen/Qwen3-32B' },
        },
        // Asked for under its public id, the upstream still answers with the name it loaded (Qwen/Qwen3-32B).
        { id: 'acme/unnamed', contextLength: 32_768, backend: { type: 'upstream', replicas: [upstream.origin] } },
      ],
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('passes vLLM-only fields through and renames reasoning_content to reasoning', async () => {
    nextStatus = undefined;
    const completion = await gateway.client.chat.completions.create({
      model: 'qwen/qwen3-32b',
      messages: user('capital?'),
    });
    const raw = completion as unknown as Record<string, unknown>;
    const choice = completion.choices[0] as unknown as Record<string, unknown>;
    expect(raw.prompt_token_ids).toEqual([1, 2, 3]);
    expect(raw.prompt_text).toBeNull();
    expect(choice.stop_reason).toBe(151_645);
    expect(choice.token_ids).toEqual([12_095, 13]);
    expect(choice.routed_experts).toBeNull();
    expect(completion.choices[0]?.message).toMatchObject({
      content: 'Paris.',
      reasoning: VLLM_COMPLETION.choices[0]?.message.reasoning_content,
    });
    expect(completion.choices[0]?.message).not.toHaveProperty('reasoning_content');
    expect(completion.usage?.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    expect(completion.model).toBe('qwen/qwen3-32b');
  });

  it('streams with the usage the client asked for and the public model id', async () => {
    nextStatus = undefined;
    const stream = await gateway.client.chat.completions.create({
      model: 'qwen/qwen3-32b',
      messages: user('x'),
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Paris.');
    expect(chunks.every((c) => c.model === 'qwen/qwen3-32b' && c.usage === undefined)).toBe(true);
  });

  it('names the public id in answers and stream chunks when the upstream names another model', async () => {
    nextStatus = undefined;
    const completion = await gateway.client.chat.completions.create({ model: 'acme/unnamed', messages: user('x') });
    expect(completion.model).toBe('acme/unnamed');
    const stream = await gateway.client.chat.completions.create({
      model: 'acme/unnamed',
      messages: user('x'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const models = new Set<string>();
    for await (const chunk of stream) models.add(chunk.model);
    expect([...models]).toEqual(['acme/unnamed']);
  });

  it("forwards the client's JSON text as sent when it needs no change (a stream gets its usage request)", async () => {
    nextStatus = undefined;
    const text = '{ "model": "acme/unnamed",\n  "messages": [{"role": "user", "content": "caf\\u00e9"}] }';
    expect((await postJson(gateway.base, '/v1/chat/completions', text)).status).toBe(200);
    expect(lastBody).toBe(text);
    const stream = '{"model":"acme/unnamed","stream":true,"messages":[{"role":"user","content":"x"}]}';
    await (await postJson(gateway.base, '/v1/chat/completions', stream)).text();
    expect(lastBody).toBe(`{"stream_options":{"include_usage":true,"continuous_usage_stats":true},${stream.slice(1)}`);
    const renamed = '{"model":"qwen/qwen3-32b","messages":[{"role":"user","content":"x"}]}';
    await (await postJson(gateway.base, '/v1/chat/completions', renamed)).text();
    expect(JSON.parse(lastBody)).toEqual({ ...JSON.parse(renamed), model: 'Qwen/Qwen3-32B' });
  });

  it('re-wraps upstream errors: client errors truncated, failures as 502 without upstream text', async () => {
    nextStatus = {
      status: 400,
      body: JSON.stringify({
        object: 'error',
        message: `bad input ${'x'.repeat(10_000)}`,
        type: 'BadRequestError',
        code: 400,
      }),
    };
    const bad = await apiError(
      gateway.client.chat.completions.create({ model: 'qwen/qwen3-32b', messages: user('x') }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message.length).toBeLessThan(400);
    expect(bad.error).toMatchObject({ type: 'invalid_request_error', code: 'upstream_rejected' });
    nextStatus = { status: 500, body: '{"error":{"message":"engine crashed while reading SECRET"}}' };
    const failed = await apiError(
      gateway.client.chat.completions.create({ model: 'qwen/qwen3-32b', messages: user('x') }),
    );
    expect(failed.status).toBe(502);
    expect(JSON.stringify(failed.error)).not.toContain('SECRET');
    nextStatus = undefined;
  });

  it('converts float embeddings from the upstream to the base64 the SDK asks for', async () => {
    const embedding = await gateway.client.embeddings.create({ model: 'qwen/qwen3-32b', input: 'hello' });
    expect(embedding.data[0]?.embedding).toEqual([0.5, -0.25]);
    expect(embedding.model).toBe('qwen/qwen3-32b');
  });
});
