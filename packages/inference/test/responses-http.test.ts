import type OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS_DISABLED_MESSAGE } from '../src/wire/chat-validation.js';
import { BREAK_OFF, scriptedChat, THINK } from './support/chat-script.js';
import { type FixedUpstream, startFixedUpstream } from './support/fixed-upstream.js';
import { apiError, postJson, startGateway, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/coder';
const THINKING = 'acme/coder-thinking';
const TEXT_ONLY = 'acme/text-only';
const WEATHER = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
};
/** codex's apply_patch as a freeform tool with a Lark grammar. */
const APPLY_PATCH = {
  type: 'custom' as const,
  name: 'apply_patch',
  description: 'Edit files',
  format: { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: "*** Begin Patch"' },
};
const USAGE = {
  input_tokens: 21,
  input_tokens_details: { cached_tokens: 4 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 3 },
  total_tokens: 30,
};

// biome-ignore lint/suspicious/noExplicitAny: upstream bodies checked field by field
type Received = any;

describe('/v1/responses with the official OpenAI SDK over a chat-completions upstream', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  const received: Received[] = [];

  beforeAll(async () => {
    upstream = await startFixedUpstream(scriptedChat(received));
    const backend = { type: 'upstream', replicas: [upstream.origin] };
    gateway = await startGateway({
      models: [
        { id: MODEL, contextLength: 32768, modalities: ['image'], backend },
        { id: THINKING, contextLength: 32768, capabilities: { tools: false, reasoning: true }, backend },
        { id: TEXT_ONLY, contextLength: 32768, backend },
      ],
    });
    client = gateway.client;
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  /** Every event of a streamed response, and the SDK's final response. */
  async function streamed(params: Omit<OpenAI.Responses.ResponseCreateParamsStreaming, 'stream'>) {
    const stream = client.responses.stream(params);
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    return { events, types: events.map((e) => e.type), final: await stream.finalResponse() };
  }

  it('text: instructions and developer items become one leading system message; store is false; usage in full', async () => {
    const response = await client.responses.create({
      model: MODEL,
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Capital of France?' }] },
      ],
      max_output_tokens: 64,
      temperature: 0.2,
    });
    expect(response).toMatchObject({
      id: expect.stringMatching(/^resp_/),
      object: 'response',
      status: 'completed',
      model: MODEL,
      store: false,
      instructions: 'Be brief.',
      max_output_tokens: 64,
      output: [
        {
          type: 'message',
          id: expect.stringMatching(/^msg_/),
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Paris.', annotations: [] }],
        },
      ],
      usage: USAGE,
    });
    expect(response.output_text).toBe('Paris.');
    expect(received.at(-1)).toMatchObject({
      messages: [
        { role: 'system', content: 'Be brief.\n\nAnswer in English.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      max_completion_tokens: 64,
      temperature: 0.2,
    });
    expect(received.at(-1)).not.toHaveProperty('store');
  });

  it('an image: input_image becomes an image_url part', async () => {
    const url = 'data:image/png;base64,iVBORw0KGgo=';
    await client.responses.create({
      model: MODEL,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is it?' },
            { type: 'input_image', image_url: url, detail: 'low' },
          ],
        },
      ],
    });
    expect(received.at(-1).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is it?' },
          { type: 'image_url', image_url: { url, detail: 'low' } },
        ],
      },
    ]);
    const refused = await apiError(
      client.responses.create({
        model: TEXT_ONLY,
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: url, detail: 'auto' }] }],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'unsupported_modality', param: 'input[0].content[0]' });
  });

  it('a function tool round trip: function_call out, function_call_output back', async () => {
    const first = await client.responses.create({ model: MODEL, input: 'Weather in Paris?', tools: [WEATHER] });
    expect(first.output).toEqual([
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        status: 'completed',
      },
    ]);
    expect(received.at(-1).tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Current weather', parameters: WEATHER.parameters },
      },
    ]);
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({
      model: MODEL,
      tools: [WEATHER],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: '22°C, sunny' },
      ],
    });
    expect(second.output_text).toBe('Got: 22°C, sunny');
    expect(received.at(-1)).toMatchObject({
      tool_choice: 'auto',
      parallel_tool_calls: false,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '22°C, sunny' },
      ],
    });
  });

  it('streams a text answer in the order the SDKs check, numbered from 0', async () => {
    const { events, types, final } = await streamed({ model: MODEL, input: 'Capital of France?' });
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(final).toMatchObject({ status: 'completed', output_text: 'Paris.', usage: USAGE, store: false });
    expect(received.at(-1)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams a function call: arguments as deltas, the whole call in output_item.done', async () => {
    const { types, final } = await streamed({ model: MODEL, input: 'Weather?', tools: [WEATHER] });
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      }),
    ]);
  });

  it('a -thinking variant: reasoning as summary events and a reasoning item first; tools refused verbatim', async () => {
    const { types, final } = await streamed({ model: THINKING, input: `${THINK}: capital of France?` });
    expect(types.slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
    expect(final.output).toEqual([
      {
        type: 'reasoning',
        id: expect.stringMatching(/^rs_/),
        summary: [{ type: 'summary_text', text: 'Thinking it over.' }],
      },
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Paris.' })] }),
    ]);
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(3);
    const plain = await client.responses.create({
      model: THINKING,
      input: `${THINK}: again`,
      reasoning: { effort: 'low' },
    });
    expect(plain.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(received.at(-1).reasoning_effort).toBe('low');
    const refused = await apiError(client.responses.create({ model: THINKING, input: 'Weather?', tools: [WEATHER] }));
    expect([refused.status, refused.message]).toEqual([400, `400 ${TOOLS_DISABLED_MESSAGE}`]);
  });

  it('replayed reasoning goes back as the assistant reasoning of the same turn', async () => {
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Weather?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need the tool.' }] },
      { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
    ];
    await client.responses.create({ model: MODEL, input, tools: [WEATHER] });
    expect(received.at(-1).messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning: 'Need the tool.',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    });
  });

  it("codex's request (as 0.171 sends it): custom apply_patch as a one-string function, a namespace flattened, web_search left out, extra fields accepted", async () => {
    const body = {
      model: MODEL,
      input: [
        { type: 'message', id: 'msg_1', role: 'developer', content: [{ type: 'input_text', text: 'You are codex.' }] },
        { type: 'message', id: 'msg_2', role: 'user', content: [{ type: 'input_text', text: 'Fix it' }] },
      ],
      tools: [
        APPLY_PATCH,
        {
          type: 'namespace',
          name: 'multi_agent_v1',
          description: 'Tools for sub-agents.',
          tools: [{ type: 'function', name: 'spawn_agent', strict: false, parameters: { type: 'object' } }],
        },
        { type: 'web_search', external_web_access: true },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { summary: 'auto' },
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'conversation-1',
      text: { verbosity: 'low' },
      client_metadata: { session: 'x' },
    };
    const { final } = await streamed(body as never);
    expect(final.output).toEqual([
      {
        type: 'custom_tool_call',
        id: expect.stringMatching(/^ctc_/),
        call_id: 'call_1',
        name: 'apply_patch',
        input: '*** Begin Patch',
        status: 'completed',
      },
    ]);
    const sent = received.at(-1);
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: expect.stringContaining('start: "*** Begin Patch"'),
          parameters: { type: 'object', properties: { input: expect.any(Object) }, required: ['input'] },
        },
      },
      { type: 'function', function: { name: 'spawn_agent', parameters: { type: 'object' } } },
    ]);
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are codex.' });
    for (const field of ['prompt_cache_key', 'include', 'client_metadata', 'store', 'text', 'reasoning'])
      expect(sent).not.toHaveProperty(field);
    await client.responses.create({
      model: MODEL,
      tools: [APPLY_PATCH],
      input: [
        { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done!' },
      ],
    });
    expect(received.at(-1).messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Done!' },
    ]);
  });

  it('max_output_tokens reached: incomplete, with the reason, streamed and not', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Long story', max_output_tokens: 4 });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    const { types, final } = await streamed({ model: MODEL, input: 'Long story', max_output_tokens: 4 });
    expect(types.at(-1)).toBe('response.incomplete');
    expect(final).toMatchObject({ status: 'incomplete', output_text: 'Par' });
  });

  it('json_schema text format becomes response_format', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    await client.responses.create({
      model: MODEL,
      input: 'City?',
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(received.at(-1).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema, strict: true },
    });
  });

  it('an upstream that breaks off mid-stream: an error event, then response.failed', async () => {
    const response = await postJson(
      gateway.base,
      '/v1/responses',
      JSON.stringify({ model: MODEL, input: BREAK_OFF, stream: true }),
    );
    const text = await response.text();
    const types = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(types).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(text).toContain('"status":"failed"');
    expect(text).toContain('"code":"server_error"');
  });

  it.each([
    [
      'previous_response_id',
      { previous_response_id: 'resp_123' },
      'previous_response_not_found',
      /resp_123.*not found/,
    ],
    ['background mode', { background: true }, 'unsupported_parameter', /Background mode is not supported/],
    ['a conversation', { conversation: 'conv_1' }, 'unsupported_parameter', /'conversation'/],
    [
      'a hosted file search',
      { tools: [{ type: 'file_search', vector_store_ids: [] }] },
      'unsupported_value',
      /file_search/,
    ],
    [
      'an input_file',
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      'unsupported_value',
      /input_file/,
    ],
  ])('refuses %s with a 400 in OpenAI’s shape', async (_title, fields, code, message) => {
    const error = await apiError(client.responses.create({ model: MODEL, input: 'hi', ...fields } as never));
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code });
    expect(error.message).toMatch(message);
  });

  it('an item_reference, and stored responses by id, are not found: nothing is stored', async () => {
    const item = await apiError(
      client.responses.create({ model: MODEL, input: [{ type: 'item_reference', id: 'msg_1' }] }),
    );
    expect([item.status, item.message]).toEqual([404, expect.stringMatching(/msg_1.*not persisted/)]);
    for (const call of [
      () => client.responses.retrieve('resp_1'),
      () => client.responses.delete('resp_1'),
      () => client.responses.cancel('resp_1'),
      () => client.responses.inputItems.list('resp_1'),
    ]) {
      const error = await apiError(call());
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/resp_1' not found.*stores no responses/);
    }
  });

  it('unknown model, and requests without a key, answer as chat completions does', async () => {
    const missing = await apiError(client.responses.create({ model: 'acme/none', input: 'hi' }));
    expect(missing.status).toBe(404);
    const anonymous = await fetch(`${gateway.base}/v1/responses/resp_1`);
    expect(anonymous.status).toBe(401);
  });
});
