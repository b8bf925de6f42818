import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { captureLog } from '@atrium/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODEL_ID, TEST_MODEL_REPLY } from '../src/index.js';
import { TOOLS_DISABLED_MESSAGE } from '../src/wire/chat-validation.js';
import { type FixedUpstream, startFixedUpstream } from './support/fixed-upstream.js';
import { postJson, startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const REMOTE = 'acme/remote-tools';
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
};

const sse = (chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const usage = { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 };
const toolCall = { id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

/** A vLLM-like upstream: tool calls when tools are offered, an answer once a tool result is in, `/tokenize`, a stop string. */
function remoteModel(received: Record<string, unknown>[]) {
  return (request: IncomingMessage, text: string, response: ServerResponse) => {
    const body = JSON.parse(text) as Record<string, unknown> & { messages: { role: string }[]; stop?: string[] };
    received.push(body);
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.url === '/tokenize') return json({ count: 42, max_model_len: 32768 });
    const prompt = JSON.stringify(body.messages);
    if (prompt.includes('upstream refuses') || prompt.includes('upstream fails')) {
      const refuses = prompt.includes('upstream refuses');
      response.writeHead(refuses ? 400 : 500, { 'content-type': 'application/json' });
      const message = refuses ? "This model's maximum context length is 32768 tokens." : `crashed on ${prompt}`;
      return void response.end(JSON.stringify({ error: { message, type: 'BadRequestError', code: 400 } }));
    }
    const answered = body.messages.some((m) => m.role === 'tool');
    const calls = body.tools !== undefined && !answered;
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (body.messages.some((m) => JSON.stringify(m).includes('break off'))) {
        response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Par' } }], usage })}\n\n`);
        return void setTimeout(() => response.socket?.destroy(), 50);
      }
      const [name, args] = ['get_weather', ['{"city":', '"Paris"}']];
      const chunks = calls
        ? [
            {
              choices: [
                {
                  index: 0,
                  delta: {
                    tool_calls: [{ index: 0, id: 'call_7', type: 'function', function: { name, arguments: '' } }],
                  },
                },
              ],
            },
            ...args.map((a) => ({
              choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: a } }] } }],
            })),
            { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage },
          ]
        : [
            { choices: [{ index: 0, delta: { role: 'assistant', content: 'Sunny' } }], usage },
            { choices: [{ index: 0, delta: {}, finish_reason: 'stop', stop_reason: null }], usage },
          ];
      return void response.end(sse(chunks));
    }
    const stopped = body.stop?.includes('END') === true;
    return json({
      id: 'chatcmpl-9',
      choices: [
        {
          index: 0,
          message: calls
            ? { role: 'assistant', content: null, tool_calls: [toolCall] }
            : { role: 'assistant', content: answered ? 'It is sunny in Paris.' : 'Stopped before ' },
          finish_reason: calls ? 'tool_calls' : 'stop',
          stop_reason: stopped ? 'END' : null,
        },
      ],
      usage: { ...usage, prompt_tokens_details: { cached_tokens: 16 } },
    });
  };
}

/** The `APIError` the Anthropic SDK throws for a refused request. */
async function anthropicError(promise: Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Anthropic.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('/v1/messages with the official Anthropic SDK', () => {
  let gateway: TestGateway;
  let upstream: FixedUpstream;
  const received: Record<string, unknown>[] = [];
  let client: Anthropic;
  const log = captureLog('debug');

  beforeAll(async () => {
    upstream = await startFixedUpstream(remoteModel(received));
    gateway = await startGateway(
      {
        models: [
          {
            id: TEST_MODEL_ID,
            contextLength: 8192,
            capabilities: { tools: false },
            backend: { type: 'embedded', threads: 1, sequences: 2 },
          },
          {
            id: REMOTE,
            contextLength: 32768,
            modalities: ['image'],
            backend: { type: 'upstream', replicas: [upstream.origin], model: 'Qwen/Qwen3-32B' },
          },
        ],
      },
      log.logger,
    );
    // As Claude Code is configured: ANTHROPIC_BASE_URL is the gateway without `/v1`, the key as auth token.
    client = new Anthropic({
      baseURL: gateway.base,
      authToken: TEST_KEY,
      apiKey: null,
      maxRetries: 0,
      timeout: 20_000,
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  describe('embedded engine', () => {
    it('messages.create answers a Message with usage and a request-id header', async () => {
      const { data, response } = await client.messages
        .create({ model: TEST_MODEL_ID, max_tokens: 64, messages: [{ role: 'user', content: 'Hi!' }] })
        .withResponse();
      expect(data).toMatchObject({
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        role: 'assistant',
        model: TEST_MODEL_ID,
        content: [{ type: 'text', text: TEST_MODEL_REPLY }],
        stop_reason: 'end_turn',
        stop_sequence: null,
      });
      expect(data.usage.input_tokens).toBeGreaterThan(0);
      expect(data.usage.output_tokens).toBeGreaterThan(5);
      expect(response.headers.get('request-id')).toBeTruthy();
    });

    it('messages.stream delivers the events in order and finalMessage() the whole message', async () => {
      const stream = client.messages.stream({
        model: TEST_MODEL_ID,
        max_tokens: 64,
        system: 'You are terse.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi!' }] }],
      });
      const kinds: string[] = [];
      stream.on('streamEvent', (event) => kinds.push(event.type));
      const message = await stream.finalMessage();
      expect(message.content).toEqual([{ type: 'text', text: TEST_MODEL_REPLY }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.output_tokens).toBeGreaterThan(5);
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(kinds.slice(0, 2)).toEqual(['message_start', 'content_block_start']);
      expect(kinds.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    });

    it('max_tokens reached is stop_reason max_tokens', async () => {
      const message = await client.messages.create({
        model: TEST_MODEL_ID,
        max_tokens: 2,
        messages: [{ role: 'user', content: 'Hi!' }],
      });
      expect([message.stop_reason, message.usage.output_tokens]).toEqual(['max_tokens', 2]);
    });

    it('a stop sequence the engine matched is stop_sequence, with the text before it', async () => {
      const message = await client.messages.create({
        model: TEST_MODEL_ID,
        max_tokens: 64,
        stop_sequences: ['tiny'],
        messages: [{ role: 'user', content: 'Hi!' }],
      });
      expect([message.stop_reason, message.stop_sequence]).toEqual(['stop_sequence', 'tiny']);
      expect(message.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^Hello! I am a\s*$/), citations: null },
      ]);
    });

    it('countTokens uses the model tokenizer', async () => {
      const short = await client.messages.countTokens({
        model: TEST_MODEL_ID,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const long = await client.messages.countTokens({
        model: TEST_MODEL_ID,
        system: 'You are a helpful assistant.',
        messages: [{ role: 'user', content: 'Hi there, how are you doing today?' }],
      });
      expect(short.input_tokens).toBeGreaterThan(0);
      expect(long.input_tokens).toBeGreaterThan(short.input_tokens);
    });

    it('tools against a model served without tool calling fail with the seed message', async () => {
      const error = await anthropicError(
        client.messages.create({
          model: TEST_MODEL_ID,
          max_tokens: 8,
          tools: [WEATHER_TOOL],
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ error: { type: 'invalid_request_error', message: TOOLS_DISABLED_MESSAGE } });
    });
  });

  describe('upstream replica', () => {
    it('a tool-use round trip: tool_use with parsed input, then the tool_result answered', async () => {
      const first = await client.messages.create({
        model: REMOTE,
        max_tokens: 100,
        tools: [WEATHER_TOOL],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expect(first.stop_reason).toBe('tool_use');
      expect(first.content).toEqual([
        { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(first.usage).toMatchObject({ input_tokens: 5, cache_read_input_tokens: 16, output_tokens: 9 });
      const second = await client.messages.create({
        model: REMOTE,
        max_tokens: 100,
        tools: [WEATHER_TOOL],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: '22°C, sunny' }] },
        ],
      });
      expect(second.content).toEqual([{ type: 'text', text: 'It is sunny in Paris.', citations: null }]);
      expect(received.at(-1)).toMatchObject({
        model: 'Qwen/Qwen3-32B',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            tool_calls: [{ id: 'call_7', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_7', content: '22°C, sunny' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL.input_schema } }],
      });
    });

    it('streams a tool call as input_json_delta; finalMessage() parses the input', async () => {
      const message = await client.messages
        .stream({
          model: REMOTE,
          max_tokens: 100,
          tools: [WEATHER_TOOL],
          messages: [{ role: 'user', content: 'Weather?' }],
        })
        .finalMessage();
      expect(message.content).toEqual([
        { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(message.stop_reason).toBe('tool_use');
      expect(message.usage).toMatchObject({ input_tokens: 21, output_tokens: 9 });
      expect(received.at(-1)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    });

    it('a matched stop sequence is reported as such', async () => {
      const message = await client.messages.create({
        model: REMOTE,
        max_tokens: 100,
        stop_sequences: ['END'],
        messages: [{ role: 'user', content: 'Count' }],
      });
      expect([message.stop_reason, message.stop_sequence]).toEqual(['stop_sequence', 'END']);
    });

    it('a text document reaches the model as text after its title', async () => {
      await client.messages.create({
        model: REMOTE,
        max_tokens: 16,
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                title: 'Manual',
                source: { type: 'text', media_type: 'text/plain', data: 'Press the button.' },
              },
              { type: 'text', text: 'What does it say?' },
            ],
          },
        ],
      });
      expect((received.at(-1) as { messages: unknown[] }).messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'Manual' },
          { type: 'text', text: 'Press the button.' },
          { type: 'text', text: 'What does it say?' },
        ],
      });
    });

    it('countTokens asks the upstream tokenizer with the translated prompt', async () => {
      const count = await client.messages.countTokens({
        model: REMOTE,
        system: 'S',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(count).toEqual({ input_tokens: 42 });
      expect(received.at(-1)).toEqual({
        model: 'Qwen/Qwen3-32B',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'Hi' },
        ],
        add_generation_prompt: true,
      });
    });

    it('an upstream that breaks off mid-stream surfaces as an api_error event', async () => {
      const stream = client.messages.stream({
        model: REMOTE,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'please break off' }],
      });
      const error = await anthropicError(stream.finalMessage());
      expect(error.message).toContain('api_error');
    });
  });

  describe('auth, discovery and hostile input', () => {
    it('accepts x-api-key, refuses a bad key in the Anthropic envelope', async () => {
      const viaHeader = new Anthropic({
        baseURL: gateway.base,
        apiKey: null,
        authToken: null,
        defaultHeaders: { 'x-api-key': TEST_KEY },
        maxRetries: 0,
      });
      const count = await viaHeader.messages.countTokens({
        model: TEST_MODEL_ID,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(count.input_tokens).toBeGreaterThan(0);
      const bad = new Anthropic({ baseURL: gateway.base, apiKey: 'sk-wrong-key-123', maxRetries: 0 });
      const error = await anthropicError(
        bad.messages.create({ model: TEST_MODEL_ID, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(error.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      expect(error.requestID).toBeTruthy();
    });

    it('answers HEAD / and ignores ?beta=true and anthropic-beta', async () => {
      expect((await fetch(`${gateway.base}/`, { method: 'HEAD' })).status).toBe(200);
      const response = await postJson(
        gateway.base,
        '/v1/messages?beta=true',
        JSON.stringify({ model: TEST_MODEL_ID, max_tokens: 4, messages: [{ role: 'user', content: 'Hi' }] }),
        { 'anthropic-beta': 'prompt-caching-2024-07-31', 'anthropic-version': '2023-06-01' },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ type: 'message' });
    });

    it('lists and retrieves models in Anthropic shape when anthropic-version is sent', async () => {
      const page = await client.models.list();
      expect(page.data.map((m) => m.id)).toEqual([TEST_MODEL_ID, REMOTE]);
      expect(page.data[1]).toMatchObject({ type: 'model', display_name: 'remote-tools', max_input_tokens: 32768 });
      expect(await client.models.retrieve(REMOTE)).toMatchObject({ type: 'model', id: REMOTE });
      const openai = await gateway.client.models.list();
      expect(openai.data[0]).toMatchObject({ object: 'model', id: TEST_MODEL_ID });
    });

    const tenMegabytes = 'A'.repeat(10 * 1024 * 1024);
    const hostile: [string, Record<string, unknown>, number, string, RegExp][] = [
      [
        'missing max_tokens',
        { model: REMOTE, messages: [{ role: 'user', content: 'x' }] },
        400,
        'invalid_request_error',
        /max_tokens/,
      ],
      [
        'unknown field',
        { model: REMOTE, max_tokens: 5, messages: [{ role: 'user', content: 'x' }], foo: 1 },
        400,
        'invalid_request_error',
        /foo/,
      ],
      [
        'max_tokens as a string',
        { model: REMOTE, max_tokens: '5', messages: [{ role: 'user', content: 'x' }] },
        400,
        'invalid_request_error',
        /max_tokens/,
      ],
      [
        'a tool_result from the assistant',
        {
          model: REMOTE,
          max_tokens: 5,
          messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'x' }] }],
        },
        400,
        'invalid_request_error',
        /messages\.0\.content\.0\.type/,
      ],
      [
        'an audio block',
        {
          model: REMOTE,
          max_tokens: 5,
          messages: [{ role: 'user', content: [{ type: 'audio', source: { type: 'base64', data: 'AA' } }] }],
        },
        400,
        'invalid_request_error',
        /\/v1\/chat\/completions/,
      ],
      [
        'a PDF document',
        {
          model: REMOTE,
          max_tokens: 5,
          messages: [
            {
              role: 'user',
              content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } }],
            },
          ],
        },
        400,
        'invalid_request_error',
        /PDF files\) are not supported/,
      ],
      [
        'a video block',
        {
          model: REMOTE,
          max_tokens: 5,
          messages: [{ role: 'user', content: [{ type: 'video', source: { type: 'url', url: 'https://x/v.mp4' } }] }],
        },
        400,
        'invalid_request_error',
        /audio and video/,
      ],
      [
        'a 10 MB base64 image',
        {
          model: REMOTE,
          max_tokens: 5,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: tenMegabytes } }],
            },
          ],
        },
        400,
        'invalid_request_error',
        /exceeds 5 MB/,
      ],
      [
        'an image for a text-only model',
        {
          model: TEST_MODEL_ID,
          max_tokens: 5,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } }],
            },
          ],
        },
        400,
        'invalid_request_error',
        /image/,
      ],
      [
        'a server tool',
        {
          model: REMOTE,
          max_tokens: 5,
          tools: [{ type: 'web_search_20250305', name: 'web_search' }],
          messages: [{ role: 'user', content: 'x' }],
        },
        400,
        'invalid_request_error',
        /server tool/,
      ],
      [
        'what the upstream refuses, with its message',
        { model: REMOTE, max_tokens: 5, messages: [{ role: 'user', content: 'upstream refuses' }] },
        400,
        'invalid_request_error',
        /maximum context length is 32768/,
      ],
      [
        'an upstream failure, without quoting it',
        { model: REMOTE, max_tokens: 5, messages: [{ role: 'user', content: 'upstream fails' }] },
        502,
        'api_error',
        /^the model server failed to answer \(HTTP 500\)$/,
      ],
      [
        'an unknown model',
        { model: 'acme/nothing', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] },
        404,
        'not_found_error',
        /acme\/nothing/,
      ],
    ];
    it.each(hostile)('refuses %s', async (_title, body, status, type, message) => {
      const response = await postJson(gateway.base, '/v1/messages', JSON.stringify(body));
      expect(response.status).toBe(status);
      expect(response.headers.get('request-id')).toBeTruthy();
      const envelope = (await response.json()) as { type: string; error: { type: string; message: string } };
      expect(envelope).toMatchObject({ type: 'error', error: { type } });
      expect(envelope.error.message).toMatch(message);
    });

    it('refuses a body over the limit as request_too_large', async () => {
      const response = await postJson(gateway.base, '/v1/messages', `"${'A'.repeat(33 * 1024 * 1024)}"`);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    });

    it('refuses malformed JSON and a missing key in the envelope, on count_tokens too', async () => {
      const broken = await postJson(gateway.base, '/v1/messages/count_tokens', '{"model":');
      expect([broken.status, ((await broken.json()) as { error: { type: string } }).error.type]).toEqual([
        400,
        'invalid_request_error',
      ]);
      const anonymous = await fetch(`${gateway.base}/v1/messages`, { method: 'POST', body: '{}' });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    });
  });

  it('logs nothing of prompts, metadata or answers', async () => {
    const marker = `PRIVACY-CANARY-${randomBytes(8).toString('hex')}`;
    const params = {
      max_tokens: 16,
      system: `system ${marker}`,
      metadata: { user_id: marker },
      messages: [{ role: 'user' as const, content: `tell me about ${marker}` }],
    };
    await client.messages.create({ model: TEST_MODEL_ID, ...params });
    await client.messages.stream({ model: REMOTE, ...params }).finalMessage();
    await client.messages.countTokens({ model: TEST_MODEL_ID, messages: params.messages });
    await anthropicError(client.messages.create({ model: TEST_MODEL_ID, ...params, tools: [WEATHER_TOOL] }));
    await anthropicError(client.messages.create({ model: `acme/${marker}`, ...params }));
    await postJson(gateway.base, '/v1/messages', `{"model":"${marker}",`);
    expect(log.text()).toContain('"route":"/v1/messages"');
    expect(log.text()).not.toContain(marker);
  });
});
