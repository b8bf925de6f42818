import type { ServerResponse } from 'node:http';
import { captureLog } from '@atrium/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type FixedUpstream, recordedVllm, startFixedUpstream } from './support/fixed-upstream.js';
import { apiError, postJson, startGateway, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/routed';
const user = [{ role: 'user' as const, content: 'hi' }];

describe('upstream router through real HTTP', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  async function upstream(respond: Parameters<typeof startFixedUpstream>[0]): Promise<FixedUpstream> {
    const server = await startFixedUpstream(respond);
    cleanup.push(server.close);
    return server;
  }

  async function gateway(replicas: string[], extra: Record<string, unknown> = {}): Promise<TestGateway> {
    const { routing, ...backendExtra } = extra as { routing?: unknown };
    const started = await startGateway({
      models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas, ...backendExtra } }],
      routing: { healthIntervalMs: 60_000, failureThreshold: 2, ...(routing as object) },
    });
    cleanup.push(started.close);
    return started;
  }

  it('retries a 5xx on the other replica and ejects a replica that keeps failing', async () => {
    const failing = await upstream((_request, _body, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"boom","type":"InternalServerError","param":null,"code":500}}');
    });
    const healthy = await upstream(recordedVllm);
    const { client } = await gateway([failing.origin, healthy.origin]);
    for (let i = 0; i < 6; i++) {
      const answer = await client.chat.completions.create({ model: MODEL, messages: user });
      expect(answer.choices[0]?.message.content).toBe('Paris.');
    }
    expect(healthy.requests).toHaveLength(6);
    expect(failing.requests.length).toBe(2);
  });

  it('a stream: a 5xx is retried on the other replica, a 4xx comes back with the model server message', async () => {
    const failing = await upstream((_request, _body, response) => {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"busy","type":"ServiceUnavailable","param":null,"code":503}}');
    });
    const healthy = await upstream(recordedVllm);
    const { client } = await gateway([failing.origin, healthy.origin]);
    for (let i = 0; i < 2; i++) {
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: MODEL, messages: user, stream: true }))
        text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('Paris.');
    }
    expect(failing.requests.length).toBeGreaterThanOrEqual(1);

    const refusing = await upstream((_request, body, response) => {
      const pad = body.includes('huge') ? ' pad'.repeat(100_000) : '';
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        `{"error":{"message":"This model's maximum context length is 4096 tokens.${pad}","type":"BadRequestError","param":null,"code":400}}`,
      );
    });
    const other = await gateway([refusing.origin]);
    const refused = (content: string) =>
      apiError(
        other.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content }], stream: true }),
      );
    const error = await refused('hi');
    expect(error.status).toBe(400);
    expect(error.message).toContain('maximum context length is 4096 tokens');
    // A 400 KB error body is read up to 64 KiB and let go: the refusal still comes, in our words.
    const huge = await refused('huge');
    expect(huge.status).toBe(400);
    expect(huge.message).toContain('the model server refused the request (HTTP 400)');
  });

  it('sends the configured upstream key as a bearer token', async () => {
    let seen: string | undefined;
    const server = await upstream((request, body, response) => {
      seen = request.headers.authorization;
      recordedVllm(request, body, response);
    });
    const { client } = await gateway([server.origin], { apiKey: 'upstream-secret' });
    await client.chat.completions.create({ model: MODEL, messages: user });
    expect(seen).toBe('Bearer upstream-secret');
  });

  it('aborts the upstream request when the client leaves a stream', async () => {
    let upstreamClosed: Promise<void> = Promise.resolve();
    const server = await upstream((_request, _body, response: ServerResponse) => {
      upstreamClosed = new Promise((resolve) => response.on('close', () => resolve()));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        'data: {"id":"c","object":"chat.completion.chunk","model":"acme/routed","choices":[{"index":0,"delta":{"content":"a"}}]}\n\n',
      );
      // ...and never finishes, like a long generation.
    });
    const { client } = await gateway([server.origin]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: MODEL, messages: user, stream: true },
      { signal: controller.signal },
    );
    for await (const chunk of stream) {
      expect(chunk.choices[0]?.delta.content).toBe('a');
      controller.abort();
      break;
    }
    await upstreamClosed;
  });

  it('waiting for a connection is bounded: 503 with retry-after, counted in /metrics, logged once per episode', async () => {
    let held = 0;
    const server = await upstream((_request, _body, response: ServerResponse) => {
      held++;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        'data: {"id":"c","object":"chat.completion.chunk","model":"acme/routed","choices":[{"index":0,"delta":{"content":"a"}}]}\n\n',
      );
      // ...and holds its connection, like a long generation.
    });
    const log = captureLog('info');
    const started = await startGateway(
      {
        models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [server.origin] } }],
        routing: { healthIntervalMs: 60_000, connectionsPerReplica: 2, connectionWaitMs: 300 },
      },
      log.logger,
    );
    cleanup.push(started.close);
    const streams = [];
    for (let i = 0; i < 2; i++) {
      const stream = await started.client.chat.completions.create({ model: MODEL, messages: user, stream: true });
      streams.push(stream);
    }
    expect(held).toBe(2);
    const waiting = Array.from({ length: 3 }, () =>
      postJson(started.base, '/v1/chat/completions', JSON.stringify({ model: MODEL, messages: user })),
    );
    const refused = await Promise.all(waiting);
    for (const response of refused) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(((await response.json()) as { error: unknown }).error).toMatchObject({
        type: 'server_error',
        code: 'upstream_overloaded',
      });
    }
    expect(held).toBe(2);
    const metrics = await (await fetch(`${started.base}/metrics`)).text();
    expect(metrics).toContain('atrium_inference_upstream_waiting 0');
    expect(metrics).toContain('atrium_inference_upstream_waits_total 3');
    expect(metrics).toContain('atrium_inference_upstream_wait_timeouts_total 3');
    expect(log.text().match(/waiting for a connection to a model server/g)).toHaveLength(1);
    for (const stream of streams) stream.controller.abort();
  });

  it('aborts the upstream request when the client leaves before the upstream answered', async () => {
    let received: () => void = () => undefined;
    const upstreamReceived = new Promise<void>((resolve) => {
      received = resolve;
    });
    let upstreamClosed: Promise<void> = Promise.resolve();
    const server = await upstream((_request, _body, response: ServerResponse) => {
      upstreamClosed = new Promise((resolve) => response.on('close', () => resolve()));
      received();
      // ...and never answers, like a model server with a long queue.
    });
    const { client } = await gateway([server.origin]);
    const controller = new AbortController();
    const answer = client.chat.completions.create({ model: MODEL, messages: user }, { signal: controller.signal });
    await upstreamReceived;
    controller.abort();
    await expect(answer).rejects.toThrow();
    await upstreamClosed;
  });

  it('ends a stream the upstream breaks off with an in-band error the SDK throws', async () => {
    const server = await upstream((_request, _body, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        'data: {"id":"c","object":"chat.completion.chunk","model":"acme/routed","choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {"id":"c","ch',
      );
      setTimeout(() => response.socket?.destroy(), 50);
    });
    const { client } = await gateway([server.origin]);
    const stream = await client.chat.completions.create({ model: MODEL, messages: user, stream: true });
    const seen: string[] = [];
    const failure = await apiError(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    );
    expect(seen).toEqual(['a']);
    expect(failure.message).toContain('the model server stopped responding mid-stream');
  });

  it('answers 503 when the only replica does not answer within the first-byte timeout', async () => {
    const silent = await upstream(() => {
      // never answers
    });
    const { client } = await gateway([silent.origin], { routing: { firstByteTimeoutMs: 300 } });
    const started = Date.now();
    const error = await apiError(client.chat.completions.create({ model: MODEL, messages: user }));
    expect(error.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
