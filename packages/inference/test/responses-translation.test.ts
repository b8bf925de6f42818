import { describe, expect, it } from 'vitest';
import { responseContext, responsesUsage, statusOf, toResponse } from '../src/responses/from-chat.js';
import { ResponsesStream } from '../src/responses/stream.js';
import { toChatRequest } from '../src/responses/to-chat.js';
import { validateResponsesRequest } from '../src/responses/validation.js';
import type { ResponsesRequest } from '../src/responses/wire.js';
import { upstreamModel } from './support/models.js';
import { thrownProblem } from './support/problems.js';

const request = (fields: Partial<ResponsesRequest>): ResponsesRequest => ({ model: 'acme/m', input: 'Hi', ...fields });
const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('Responses request → chat request', () => {
  const cases: [string, Partial<ResponsesRequest>, Record<string, unknown>][] = [
    ['a string input is one user message', {}, { messages: [{ role: 'user', content: 'Hi' }] }],
    [
      'instructions, system and developer items (also late ones) merge into one leading system message',
      {
        instructions: 'Base.',
        input: [
          { role: 'system', content: 'Sys.' },
          { role: 'user', content: 'Q1' },
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Dev.' }] },
        ],
      },
      {
        messages: [
          { role: 'system', content: 'Base.\n\nSys.\n\nDev.' },
          { role: 'user', content: 'Q1' },
        ],
      },
    ],
    [
      'contiguous reasoning, assistant text and calls merge into one assistant turn; outputs follow in order',
      {
        input: [
          { role: 'user', content: 'Go' },
          {
            type: 'reasoning',
            summary: [],
            content: [{ type: 'reasoning_text', text: 'Plan.' }],
            encrypted_content: null,
          },
          { role: 'assistant', content: [{ type: 'output_text', text: 'Calling.' }] },
          { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
          { type: 'function_call', call_id: 'b', name: 'f', arguments: '{"x":1}' },
          { type: 'function_call_output', call_id: 'a', output: 'A' },
          { type: 'function_call_output', call_id: 'b', output: [{ type: 'input_text', text: 'B' }] },
          { role: 'assistant', content: 'Done.' },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'Go' },
          {
            role: 'assistant',
            content: 'Calling.',
            reasoning: 'Plan.',
            tool_calls: [call('a', 'f', '{}'), call('b', 'f', '{"x":1}')],
          },
          { role: 'tool', tool_call_id: 'a', content: 'A' },
          { role: 'tool', tool_call_id: 'b', content: 'B' },
          { role: 'assistant', content: 'Done.' },
        ],
      },
    ],
    [
      'reasoning without text (codex replays content: null) adds no assistant turn',
      {
        input: [
          { role: 'user', content: 'Hi' },
          { type: 'reasoning', summary: [], content: null, encrypted_content: null },
          { role: 'user', content: 'Again' },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'user', content: 'Again' },
        ],
      },
    ],
    [
      'images in tool outputs go into one user message after the outputs',
      {
        input: [
          { type: 'function_call', call_id: 'a', name: 'shot', arguments: '{}' },
          {
            type: 'function_call_output',
            call_id: 'a',
            output: [
              { type: 'input_text', text: 'screen' },
              { type: 'input_image', image_url: 'data:image/png;base64,AA' },
            ],
          },
          { role: 'user', content: 'And?' },
        ],
      },
      {
        messages: [
          { role: 'assistant', content: null, tool_calls: [call('a', 'shot', '{}')] },
          { role: 'tool', tool_call_id: 'a', content: 'screen' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] },
          { role: 'user', content: 'And?' },
        ],
      },
    ],
    [
      'custom tool calls carry their raw input as the one string argument',
      {
        input: [
          { type: 'custom_tool_call', call_id: 'p', name: 'apply_patch', input: '*** Begin' },
          { type: 'custom_tool_call_output', call_id: 'p', output: 'ok' },
        ],
      },
      {
        messages: [
          { role: 'assistant', content: null, tool_calls: [call('p', 'apply_patch', '{"input":"*** Begin"}')] },
          { role: 'tool', tool_call_id: 'p', content: 'ok' },
        ],
      },
    ],
    [
      'function tools nested (null parameters become an empty object schema), hosted web_search left out',
      {
        tools: [
          { type: 'function', name: 'f', parameters: null, strict: false },
          { type: 'web_search', external_web_access: false },
        ],
        tool_choice: { type: 'function', name: 'f' },
        parallel_tool_calls: true,
      },
      {
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        parallel_tool_calls: true,
      },
    ],
    [
      "a namespace (codex's multi_agent_v1) is flattened: its tools go upstream under their own names",
      {
        tools: [
          {
            type: 'namespace',
            name: 'agents',
            description: 'Sub-agents',
            tools: [{ type: 'function', name: 'spawn_agent', parameters: {} }],
          },
        ],
      },
      { tools: [{ type: 'function', function: { name: 'spawn_agent', parameters: {} } }] },
    ],
    [
      'allowed_tools filters the tools and keeps its mode',
      {
        tools: [
          { type: 'function', name: 'f', parameters: {} },
          { type: 'function', name: 'g', parameters: {} },
        ],
        tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'g' }] },
      },
      { tools: [{ type: 'function', function: { name: 'g', parameters: {} } }], tool_choice: 'required' },
    ],
    [
      'sampling, output limit, JSON object format, reasoning effort, stream',
      {
        temperature: 0.5,
        top_p: 0.9,
        max_output_tokens: 99,
        text: { format: { type: 'json_object' }, verbosity: 'high' },
        reasoning: { effort: 'high', summary: 'detailed' },
        stream: true,
      },
      {
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 99,
        max_completion_tokens: 99,
        response_format: { type: 'json_object' },
        reasoning_effort: 'high',
        stream: true,
      },
    ],
    [
      'reasoning effort none turns thinking off',
      { reasoning: { effort: 'none' } },
      { chat_template_kwargs: { enable_thinking: false } },
    ],
  ];
  it.each(cases)('%s', (_title, fields, expected) => {
    expect(toChatRequest(request(fields))).toMatchObject(expected);
  });

  it('a request with only hosted tools sends neither tools nor tool_choice; no Responses-only field goes upstream', () => {
    const chat = toChatRequest(
      request({
        tools: [{ type: 'web_search' }],
        tool_choice: 'auto',
        store: false,
        metadata: { a: 'b' },
        include: ['reasoning.encrypted_content'],
        prompt_cache_key: 'k',
        user: 'u',
      }),
    );
    expect(Object.keys(chat).sort()).toEqual(['messages', 'model']);
  });
});

describe('Responses validation', () => {
  const refused = (fields: Partial<ResponsesRequest>, modalities?: string[]) =>
    thrownProblem(() => validateResponsesRequest(request(fields), upstreamModel(modalities)));
  const user = (...content: unknown[]) => ({ input: [{ role: 'user', content }] }) as Partial<ResponsesRequest>;
  const cases: [string, Partial<ResponsesRequest>, string[] | undefined, Record<string, unknown>][] = [
    ['previous_response_id', { previous_response_id: 'resp_1' }, undefined, { code: 'previous_response_not_found' }],
    ['background', { background: true }, undefined, { code: 'unsupported_parameter', param: 'background' }],
    ['an empty input without instructions', { input: [] }, undefined, { param: 'input' }],
    ['a stored prompt', { prompt: { id: 'p' } }, undefined, { param: 'prompt' }],
    ['an item_reference', { input: [{ type: 'item_reference', id: 'x' }] }, undefined, { status: 404 }],
    ['an unknown item type', { input: [{ type: 'local_shell_call' }] }, undefined, { param: 'input[0].type' }],
    ['a message role', { input: [{ role: 'tool', content: 'x' }] }, undefined, { param: 'input[0].role' }],
    [
      'a function_call without call_id',
      { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      undefined,
      { param: 'input[0].call_id' },
    ],
    [
      'an image for a text-only model',
      user({ type: 'input_image', image_url: 'data:,' }),
      undefined,
      { code: 'unsupported_modality' },
    ],
    [
      'an image by file_id',
      user({ type: 'input_image', file_id: 'f' }),
      ['image'],
      { param: 'input[0].content[0].file_id' },
    ],
    ['an input_file', user({ type: 'input_file', file_data: 'x' }), undefined, { code: 'unsupported_value' }],
    ['a text part without text', user({ type: 'input_text' }), undefined, { param: 'input[0].content[0].text' }],
    ['a hosted tool', { tools: [{ type: 'code_interpreter' }] }, undefined, { param: 'tools[0].type' }],
    [
      'a namespace inside a namespace',
      { tools: [{ type: 'namespace', name: 'a', tools: [{ type: 'namespace', name: 'b', tools: [] }] }] },
      undefined,
      { param: 'tools[0].tools[0].type' },
    ],
    [
      'a function tool without a name',
      { tools: [{ type: 'function', name: '' }] },
      undefined,
      { param: 'tools[0].name' },
    ],
    ['a hosted tool_choice', { tool_choice: { type: 'file_search' } }, undefined, { param: 'tool_choice.type' }],
    [
      'a json_schema format without a schema',
      { text: { format: { type: 'json_schema', name: 'n' } as never } },
      undefined,
      { param: 'text.format.schema' },
    ],
  ];
  it.each(cases)('refuses %s', (_title, fields, modalities, expected) => {
    expect(refused(fields, modalities)).toMatchObject({ status: 400, ...expected });
  });

  it('accepts what codex and the AI SDK send', () => {
    expect(
      refused(
        {
          input: [
            { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'd' }] },
            { role: 'user', content: [{ type: 'input_image', image_url: 'data:,', detail: 'auto' }] },
            { type: 'reasoning', summary: [], content: null, encrypted_content: null },
            { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
            { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'x' }] },
            { role: 'assistant', content: [{ type: 'output_text', text: 'a' }], id: null, status: null },
          ],
          tools: [
            { type: 'function', name: 'f', parameters: null },
            { type: 'custom', name: 'apply_patch', format: { type: 'text' } },
            { type: 'web_search', external_web_access: false },
          ],
          tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] },
          store: false,
        },
        ['image'],
      ),
    ).toBeUndefined();
  });
});

describe('chat completion → response', () => {
  const context = responseContext(
    request({
      tools: [
        { type: 'custom', name: 'apply_patch' },
        { type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'spawn_agent' }] },
      ],
    }),
    0,
  );

  it.each([
    ['stop', 'completed', null],
    ['tool_calls', 'completed', null],
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
  ])('finish_reason %s → %s', (finish, status, details) => {
    expect(statusOf(finish)).toEqual({ status, incomplete_details: details });
  });

  it('usage: every field, zeros when the model server reported nothing', () => {
    expect(responsesUsage(undefined)).toEqual({
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 0,
    });
  });

  it('reasoning, text, a function call and a custom tool call, in that order', () => {
    const response = toResponse(
      {
        choices: [
          {
            message: {
              content: 'On it.',
              reasoning_content: 'Plan.',
              tool_calls: [
                call('c1', 'shell', '{"cmd":"ls"}'),
                call('c2', 'apply_patch', '{"input":"*** Begin"}'),
                call('c3', 'spawn_agent', '{}'),
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
      context,
      1_000,
    );
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      completed_at: 1,
      store: false,
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }] },
        { type: 'message', content: [{ type: 'output_text', text: 'On it.' }] },
        { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' },
        { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin' },
        { type: 'function_call', call_id: 'c3', name: 'spawn_agent', namespace: 'agents' },
      ],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
  });
});

/** Runs chat chunks through the stream translator; answers the events' types and their payloads. */
function translate(chunks: unknown[], end = 'data: [DONE]\n\n') {
  const stream = new ResponsesStream(
    responseContext(request({ tools: [{ type: 'custom', name: 'apply_patch' }] }), 0),
    () => 0,
  );
  let text = chunks.map((chunk) => String(stream.push(Buffer.from(`data: ${JSON.stringify(chunk)}\n\n`)))).join('');
  text += String(stream.push(Buffer.from(end))) + String(stream.incomplete);
  const events = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] as string));
  return { types: events.map((e) => e.type as string), events };
}
const delta = (d: unknown, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const toolDelta = (index: number, fields: Record<string, unknown>) => delta({ tool_calls: [{ index, ...fields }] });

describe('chat stream → Responses events', () => {
  it('a second call that starts while the first streams is sent whole after it; a custom call whole at the end', () => {
    const { types, events } = translate([
      toolDelta(0, { id: 'a', function: { name: 'f', arguments: '{"x"' } }),
      toolDelta(1, { id: 'b', function: { name: 'apply_patch', arguments: '{"input":' } }),
      toolDelta(2, { id: 'c', function: { name: 'g', arguments: '{}' } }),
      toolDelta(0, { function: { arguments: ':1}' } }),
      toolDelta(1, { function: { arguments: '"*** Begin"}' } }),
      delta({}, 'tool_calls'),
    ]);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => [e.output_index, e.item]);
    expect(done).toEqual([
      [0, expect.objectContaining({ type: 'function_call', call_id: 'a', arguments: '{"x":1}', status: 'completed' })],
      [1, expect.objectContaining({ type: 'custom_tool_call', call_id: 'b', input: '*** Begin' })],
      [2, expect.objectContaining({ type: 'function_call', call_id: 'c', arguments: '{}' })],
    ]);
    expect(events.at(-1).response.output).toEqual(done.map(([, item]) => item));
  });

  it('reasoning, then text: the reasoning item is done before the message is added', () => {
    const { types } = translate([delta({ reasoning: 'Hm.' }), delta({ content: 'Yes.' }, 'stop')]);
    expect(types.slice(2)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it.each([
    ['an upstream error chunk', [delta({ content: 'Par' }), { error: { message: 'boom' } }], 'data: [DONE]\n\n'],
    ['an upstream that ends without [DONE]', [delta({ content: 'Par' })], ''],
  ])('%s: error, then response.failed, nothing after', (_title, chunks, end) => {
    const { types, events } = translate(chunks, end);
    expect(types.slice(-2)).toEqual(['error', 'response.failed']);
    expect(events.at(-1).response).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });

  it('usage: the latest running totals, for the response and for accounting', () => {
    const stream = new ResponsesStream(responseContext(request({}), 0));
    stream.push(
      Buffer.from(
        `data: ${JSON.stringify({ ...delta({ content: 'a' }), usage: { prompt_tokens: 3, completion_tokens: 1 } })}\n\n`,
      ),
    );
    stream.push(
      Buffer.from(
        `data: ${JSON.stringify({ ...delta({}, 'stop'), usage: { prompt_tokens: 3, completion_tokens: 2 } })}\n\n`,
      ),
    );
    expect(stream.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2 });
  });
});
