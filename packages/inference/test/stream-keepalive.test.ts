import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixedUpstream, startFixedUpstream, VLLM_STREAM } from './support/fixed-upstream.js';
import { postJson, startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/slow-reader';

/** An upstream that sends its headers, then reads the prompt for 350 ms before the first token. */
const slowFirstToken = (_request: unknown, _body: string, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.flushHeaders();
  setTimeout(() => response.end(VLLM_STREAM), 350);
};

describe('stream keep-alives while the model reads a long prompt', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;
  beforeAll(async () => {
    upstream = await startFixedUpstream(slowFirstToken);
    gateway = await startGateway({
      routing: { streamKeepaliveMs: 100 },
      models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('chat completions: SSE comments the OpenAI SDK skips', async () => {
    const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const raw = await (await postJson(gateway.base, '/v1/chat/completions', body)).text();
    expect(raw.startsWith(': keep-alive\n\n: keep-alive\n\n')).toBe(true);
    expect(raw.match(/: keep-alive/g)?.length).toBeLessThanOrEqual(4);
    const stream = await gateway.client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Paris.');
  });

  it("messages: Anthropic's ping events, which its SDK skips", async () => {
    const body = JSON.stringify({
      model: MODEL,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const raw = await (await postJson(gateway.base, '/v1/messages', body)).text();
    expect(raw.startsWith('event: ping\ndata: {"type": "ping"}\n\n')).toBe(true);
    expect(raw).toContain('event: message_stop');
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.base, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Paris.' }]);
  });
});
