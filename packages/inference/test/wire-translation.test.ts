import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/wire/chat.js';
import { normaliseCompletion } from '../src/wire/completion.js';
import {
  decodeBase64Embedding,
  embeddingItems,
  encodeBase64Embedding,
  toClientEmbeddings,
} from '../src/wire/embeddings.js';
import { upstreamError, upstreamErrorMessage } from '../src/wire/upstream-errors.js';
import { toUpstreamChatBody, usageRequestOf } from '../src/wire/upstream-request.js';

describe('toUpstreamChatBody', () => {
  const base: ChatRequest = { model: 'pub/m', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
  /** The body with the client's own output limit. */
  const toUpstream = (request: ChatRequest, model: string, raw?: string) =>
    toUpstreamChatBody(request, model, raw, undefined);

  it('always asks for running usage on streams and drops stream_options otherwise', () => {
    const streamed = JSON.parse(toUpstream({ ...base, stream: true }, 'up'));
    expect(streamed).toMatchObject({
      model: 'up',
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
    expect(JSON.parse(toUpstream({ ...base, stream_options: null }, 'up'))).not.toHaveProperty('stream_options');
  });

  it('drops empty tool lists, internal vLLM fields, and renames reasoning_content', () => {
    const body = JSON.parse(
      toUpstream(
        {
          ...base,
          tools: [],
          tool_choice: 'auto',
          kv_transfer_params: { x: 1 },
          cache_salt: 's',
          top_k: 5,
          messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }],
        },
        'up',
      ),
    );
    expect(body).toEqual({
      model: 'up',
      max_tokens: 16,
      top_k: 5,
      messages: [{ role: 'assistant', content: 'a', reasoning: 'r' }],
    });
  });

  it("forwards the client's JSON text when nothing needs changing, adding only a stream's usage request", () => {
    const raw = ' {"model": "up", "max_tokens": 16, "messages": [{"role": "user", "content": "h\\u00e9"}]}';
    expect(toUpstream(JSON.parse(raw), 'up', raw)).toBe(raw);
    const streamRaw = '{"model":"up","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"hi"}]}';
    expect(toUpstream(JSON.parse(streamRaw), 'up', streamRaw)).toBe(
      '{"stream_options":{"include_usage":true,"continuous_usage_stats":true},"model":"up","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"hi"}]}',
    );
  });

  it('tells the upstream the output cap admission granted, in the field the client used', () => {
    const raw = '{"model":"up","messages":[{"role":"user","content":"hi"}]}';
    const request = JSON.parse(raw) as ChatRequest;
    expect(toUpstreamChatBody(request, 'up', raw, 100)).toBe(`{"max_tokens":100,${raw.slice(1)}`);
    const cap = (extra: Partial<ChatRequest>) => {
      const body = JSON.parse(toUpstreamChatBody({ ...request, ...extra }, 'up', raw, 100));
      return { max_tokens: body.max_tokens, max_completion_tokens: body.max_completion_tokens };
    };
    expect(cap({ max_tokens: 500 })).toEqual({ max_tokens: 100 });
    expect(cap({ max_completion_tokens: 500 })).toEqual({ max_completion_tokens: 100 });
    expect(cap({ max_tokens: 500, max_completion_tokens: 500 })).toEqual({
      max_tokens: 100,
      max_completion_tokens: 100,
    });
    // A null limit in the client's JSON would override a member added in front of it: the body is rebuilt.
    const nullRaw = '{"model":"up","max_tokens":null,"messages":[]}';
    expect(JSON.parse(toUpstreamChatBody(JSON.parse(nullRaw), 'up', nullRaw, 100)).max_tokens).toBe(100);
  });

  it.each<[string, Partial<ChatRequest>]>([
    ['another upstream name', { model: 'pub/m' }],
    ['stream_options of its own', { stream: true, stream_options: { include_usage: false } }],
    ['stream_options null', { stream_options: null }],
    ['an empty tool list', { tools: [] }],
    ['an internal field', { priority: 1 }],
    ['reasoning_content', { messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }] }],
  ])('rebuilds the body for %s', (_name, extra) => {
    const request = { ...base, model: 'up', ...extra };
    const raw = JSON.stringify(request);
    expect(toUpstream(request, 'up', raw)).toBe(toUpstream(request, 'up'));
    expect(toUpstream(request, 'up', raw)).not.toBe(raw);
  });

  it('rebuilds a body that starts with a byte order mark', () => {
    const raw = '\ufeff{"model":"up","max_tokens":16,"messages":[]}';
    expect(toUpstream({ model: 'up', max_tokens: 16, messages: [] }, 'up', raw)).toBe(
      '{"model":"up","max_tokens":16,"messages":[]}',
    );
  });

  it.each([
    [undefined, { final: false, continuous: false }],
    [{}, { final: true, continuous: false }],
    [{ include_usage: false }, { final: false, continuous: false }],
    [
      { include_usage: true, continuous_usage_stats: true },
      { final: true, continuous: true },
    ],
  ])('stream_options %j → %j', (options, expected) => {
    expect(usageRequestOf({ ...base, stream: true, stream_options: options })).toEqual(expected);
  });
});

describe('normaliseCompletion', () => {
  it('fills every field of the seed shape, nulls included, from a minimal llama.cpp-style answer', () => {
    const out = normaliseCompletion(
      {
        id: 'x',
        created: 5,
        model: 'upstream-name',
        choices: [{ message: { role: 'assistant', content: 'hi', reasoning_content: 'think' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
      'pub/m',
    );
    expect(out).toEqual({
      id: 'x',
      object: 'chat.completion',
      created: 5,
      model: 'pub/m',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'hi',
            refusal: null,
            annotations: null,
            audio: null,
            function_call: null,
            tool_calls: [],
            reasoning: 'think',
          },
          logprobs: null,
          finish_reason: 'stop',
          stop_reason: null,
          token_ids: null,
          routed_experts: null,
        },
      ],
      service_tier: null,
      system_fingerprint: null,
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: null },
      prompt_logprobs: null,
      prompt_token_ids: null,
      prompt_text: null,
      kv_transfer_params: null,
    });
  });
});

describe('upstream errors', () => {
  it.each([
    ['{"error":{"message":"bad","type":"BadRequestError","param":null,"code":400}}', 'bad'],
    ['{"object":"error","message":"old","type":"BadRequestError","code":400}', 'old'],
    ['{"error":"Unauthorized"}', 'Unauthorized'],
    ['<html>', undefined],
  ])('reads %s', (body, message) => {
    expect(upstreamErrorMessage(body)).toBe(message);
  });

  it('keeps client statuses with a truncated message, and hides upstream failures behind a 502', () => {
    const long = upstreamError(400, JSON.stringify({ error: { message: 'x'.repeat(5000) } }));
    expect([long.status, long.message.length]).toEqual([400, 301]);
    const context = upstreamError(400, '{"error":{"message":"This model\'s maximum context length is 10 tokens."}}');
    expect(context.code).toBe('context_length_exceeded');
    const failure = upstreamError(500, '{"error":{"message":"secret prompt text"}}');
    expect([failure.status, failure.message]).toEqual([502, 'the model server failed to answer (HTTP 500)']);
    expect(upstreamError(401, '{"error":"Unauthorized"}').status).toBe(502);
  });
});

describe('embeddings wire', () => {
  it.each([
    ['a', ['a']],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [[1, 2], [[1, 2]]],
    [
      [[1], [2]],
      [[1], [2]],
    ],
  ])('items of %j', (input, items) => {
    expect(embeddingItems(input as never)).toEqual(items);
  });

  it('round-trips little-endian float32 base64 and converts to what the client asked for', () => {
    const vector = [0.5, -1.25, 3];
    expect(decodeBase64Embedding(encodeBase64Embedding(vector))).toEqual(vector);
    const upstream = { data: [{ index: 0, embedding: vector }], usage: { prompt_tokens: 4, completion_tokens: 0 } };
    expect(toClientEmbeddings(upstream, 'pub/m', 'base64')).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: encodeBase64Embedding(vector) }],
      model: 'pub/m',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    const asBase64 = { data: [{ embedding: encodeBase64Embedding(vector) }] };
    expect(toClientEmbeddings(asBase64, 'pub/m', 'float').data[0]?.embedding).toEqual(vector);
  });
});
