import type { IncomingMessage, ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixedUpstream, startFixedUpstream } from './support/fixed-upstream.js';
import { startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/tool-search';
const usage = { prompt_tokens: 30, completion_tokens: 6, total_tokens: 36 };

interface ChatBody {
  stream?: boolean;
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown }[];
}

/**
 * A vLLM-like model that searches before it acts: with only the search tool it calls `ToolSearch`; once a
 * tool result says the weather tool is available (and it is among the tools) it calls it; after the weather
 * tool's result it answers. The tool names of every request (`/tokenize` too) are recorded.
 */
function searchingModel(toolsSeen: string[][]) {
  return (request: IncomingMessage, text: string, response: ServerResponse) => {
    const body = JSON.parse(text) as ChatBody;
    const tools = (body.tools ?? []).map((tool) => tool.function.name);
    toolsSeen.push(tools);
    if (request.url === '/tokenize') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end('{"count":42,"max_model_len":32768}');
    }
    const last = body.messages.at(-1);
    const lastText = typeof last?.content === 'string' ? last.content : '';
    const call = (id: string, name: string, args: string) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
    });
    const message =
      last?.role !== 'tool'
        ? call('call_s', 'ToolSearch', '{"query":"select:get_weather"}')
        : lastText.includes('get_weather') && tools.includes('get_weather')
          ? call('call_w', 'get_weather', '{"city":"Paris"}')
          : { role: 'assistant', content: `Answer: ${lastText}` };
    const finish = 'tool_calls' in message ? 'tool_calls' : 'stop';
    if (body.stream === true) {
      const delta =
        'tool_calls' in message
          ? { tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
          : { content: message.content };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }], usage })}\n\n` +
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }], usage })}\n\ndata: [DONE]\n\n`,
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 'c', choices: [{ index: 0, message, finish_reason: finish }], usage }));
  };
}

/** Claude Code's tool search: its own `ToolSearch` tool, every other tool marked `defer_loading`. */
const TOOLS: Anthropic.Tool[] = [
  {
    name: 'ToolSearch',
    description: 'Find deferred tools',
    input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  {
    name: 'get_weather',
    description: 'Current weather',
    input_schema: { type: 'object', properties: { city: { type: 'string' } } },
    defer_loading: true,
  },
  { name: 'get_stock', input_schema: { type: 'object' }, defer_loading: true },
];

describe('Claude Code-style tool search over /v1/messages with the Anthropic SDK', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;
  let client: Anthropic;
  const toolsSeen: string[][] = [];

  beforeAll(async () => {
    upstream = await startFixedUpstream(searchingModel(toolsSeen));
    gateway = await startGateway({
      models: [{ id: MODEL, contextLength: 32768, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    });
    client = new Anthropic({ baseURL: gateway.base, authToken: TEST_KEY, apiKey: null, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('search, tool_reference, call of the deferred tool, answer: the tool reaches the model once referenced', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.messages.create({ model: MODEL, max_tokens: 200, tools: TOOLS, messages });
    expect(first.content).toEqual([
      { type: 'tool_use', id: 'call_s', name: 'ToolSearch', input: { query: 'select:get_weather' } },
    ]);
    messages.push(
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call_s',
            content: [{ type: 'tool_reference', tool_name: 'get_weather' }],
          },
        ],
      },
    );
    const second = await client.messages
      .stream({ model: MODEL, max_tokens: 200, tools: TOOLS, messages })
      .finalMessage();
    expect(second.content).toEqual([{ type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } }]);
    messages.push(
      { role: 'assistant', content: second.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w', content: '22°C, sunny' }] },
    );
    const third = await client.messages.create({ model: MODEL, max_tokens: 200, tools: TOOLS, messages });
    expect(third.content).toEqual([{ type: 'text', text: 'Answer: 22°C, sunny', citations: null }]);
    expect(toolsSeen).toEqual([['ToolSearch'], ['ToolSearch', 'get_weather'], ['ToolSearch', 'get_weather']]);
  });

  it('count_tokens counts only the tools loaded so far', async () => {
    const before = toolsSeen.length;
    const counted = await client.messages.countTokens({
      model: MODEL,
      tools: TOOLS,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(counted.input_tokens).toBe(42);
    expect(toolsSeen.length).toBe(before + 1);
    expect(toolsSeen.at(-1)).toEqual(['ToolSearch']);
  });

  it('a tool_reference to an unknown tool is a 400 naming it', async () => {
    const error = await client.messages
      .create({
        model: MODEL,
        max_tokens: 10,
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 's', name: 'ToolSearch', input: { query: 'x' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 's', content: [{ type: 'tool_reference', tool_name: 'gone' }] },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining("'gone'") },
    });
  });
});
