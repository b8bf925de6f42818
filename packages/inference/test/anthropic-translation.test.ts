import { describe, expect, it } from 'vitest';
import { anthropicErrorBody, anthropicErrorHeaders, anthropicErrorType } from '../src/anthropic/errors.js';
import { stopReasonOf, toAnthropicMessage, usageOf } from '../src/anthropic/from-openai.js';
import { anthropicModelPage, toAnthropicModel } from '../src/anthropic/models.js';
import { toChatPrompt, toChatRequest } from '../src/anthropic/to-openai.js';
import { validateMessages } from '../src/anthropic/validation.js';
import type { MessagesRequest } from '../src/anthropic/wire.js';
import { upstreamModel } from './support/models.js';
import { thrownProblem } from './support/problems.js';

const request = (fields: Partial<MessagesRequest>): MessagesRequest => ({
  model: 'acme/m',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hi' }],
  ...fields,
});

describe('Anthropic request → OpenAI chat request', () => {
  const cases: [string, Partial<MessagesRequest>, Record<string, unknown>][] = [
    [
      'documents as text: title and context first, then the text or the content blocks',
      {
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                title: 'Manual',
                context: 'Chapter 2',
                source: { type: 'text', media_type: 'text/plain', data: 'Press the button.' },
              },
              {
                type: 'document',
                source: {
                  type: 'content',
                  content: [
                    { type: 'text', text: 'Figure 1' },
                    { type: 'image', source: { type: 'url', url: 'https://ok.example/f.png' } },
                  ],
                },
              },
              { type: 'text', text: 'What does it say?' },
            ],
          },
        ],
      },
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Manual\nChapter 2' },
              { type: 'text', text: 'Press the button.' },
              { type: 'text', text: 'Figure 1' },
              { type: 'image_url', image_url: { url: 'https://ok.example/f.png' } },
              { type: 'text', text: 'What does it say?' },
            ],
          },
        ],
      },
    ],
    [
      'sampling fields, stop sequences, metadata',
      { temperature: 0.5, top_p: 0.9, top_k: 40, stop_sequences: ['END'], metadata: { user_id: 'u1' }, stream: true },
      {
        max_tokens: 100,
        max_completion_tokens: 100,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        stop: ['END'],
        user: 'u1',
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      },
    ],
    [
      'system string, system blocks and system-role messages joined; billing header dropped',
      {
        system: [
          { type: 'text', text: 'x-anthropic-billing-header: cc_version=1; cch=abc' },
          { type: 'text', text: 'Be brief.' },
        ],
        messages: [
          { role: 'system', content: 'Be kind.' },
          { role: 'ctx', content: 'Hi' },
        ],
      },
      {
        messages: [
          { role: 'system', content: 'Be brief.\n\nBe kind.' },
          { role: 'user', content: 'Hi' },
        ],
      },
    ],
    [
      'images: base64 as data URL, url as is; text parts kept as parts beside them',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              { type: 'image', source: { type: 'url', url: 'https://img.example/a.png' } },
            ],
          },
        ],
      },
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
              { type: 'image_url', image_url: { url: 'https://img.example/a.png' } },
            ],
          },
        ],
      },
    ],
    [
      'assistant thinking, text and tool_use; tool_result first in the next user turn, errors prefixed',
      {
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Two calls.', signature: 'sig' },
              { type: 'redacted_thinking', data: 'xxx' },
              { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
              { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Here.' },
              { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Sunny' }] },
              { type: 'tool_result', tool_use_id: 'toolu_2', content: 'timeout', is_error: true },
            ],
          },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            reasoning: 'Two calls.',
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
              { id: 'toolu_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
          { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: timeout' },
          { role: 'user', content: 'Here.' },
        ],
      },
    ],
    [
      'an image inside a tool result goes into a following user message',
      {
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [
                  { type: 'text', text: 'shot' },
                  { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lG' } },
                ],
              },
            ],
          },
        ],
      },
      {
        messages: [
          { role: 'tool', tool_call_id: 't', content: 'shot' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lG' } }] },
        ],
      },
    ],
    [
      'custom tools, tool_choice any with parallel calls disabled, thinking budget, output config',
      {
        tools: [{ name: 'weather', description: 'Weather now', input_schema: { type: 'object' } }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        thinking: { type: 'enabled', budget_tokens: 1024 },
        output_config: { effort: 'low', format: { type: 'json_schema', schema: { type: 'object' } } },
      },
      {
        tools: [
          {
            type: 'function',
            function: { name: 'weather', description: 'Weather now', parameters: { type: 'object' } },
          },
        ],
        tool_choice: 'required',
        parallel_tool_calls: false,
        chat_template_kwargs: { enable_thinking: true },
        thinking_token_budget: 1024,
        reasoning_effort: 'low',
        response_format: { type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' } } },
      },
    ],
    [
      'a named tool choice; thinking disabled',
      {
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'f' },
        thinking: { type: 'disabled' },
      },
      { tool_choice: { type: 'function', function: { name: 'f' } }, chat_template_kwargs: { enable_thinking: false } },
    ],
    ['tool_choice none and auto pass through', { tool_choice: { type: 'none' } }, { tool_choice: 'none' }],
    [
      'every block a tool result may hold: tool_reference, search_result, document, browser_state as text',
      {
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [
                  { type: 'tool_reference', tool_name: 'weather' },
                  {
                    type: 'search_result',
                    title: 'Docs',
                    source: 'https://docs.example/a',
                    content: [{ type: 'text', text: 'Use it.' }],
                  },
                  { type: 'document', title: 'Notes', source: { type: 'text', media_type: 'text/plain', data: 'n' } },
                  { type: 'browser_state', tabs: [{ id: 1, active: true }] },
                ],
              },
              { type: 'search_result', title: 'T', source: 's', content: [{ type: 'text', text: 'x' }] },
            ],
          },
        ],
      },
      {
        messages: [
          {
            role: 'tool',
            tool_call_id: 't',
            content:
              'Tool weather is now available.\nDocs\nhttps://docs.example/a\nUse it.\nNotes\nn\nBrowser state: {"tabs":[{"id":1,"active":true}]}',
          },
          { role: 'user', content: 'T\ns\nx' },
        ],
      },
    ],
  ];
  it.each(cases)('%s', (_title, fields, expected) => {
    expect(toChatRequest(request(fields))).toMatchObject(expected);
  });

  it('sends no n, no empty tool list and no stream flag unless streaming', () => {
    const chat = toChatRequest(request({ tools: [] }));
    expect(chat).not.toHaveProperty('n');
    expect(chat).not.toHaveProperty('tools');
    expect(chat).not.toHaveProperty('stream');
  });

  describe('tool search: a deferred tool is sent upstream once a tool_reference names it', () => {
    const tools = [
      { name: 'ToolSearch', input_schema: { type: 'object' } },
      { name: 'weather', input_schema: { type: 'object' }, defer_loading: true },
      { name: 'stocks', input_schema: { type: 'object' }, defer_loading: true },
    ];
    const searched = (names: string[]): MessagesRequest['messages'] => [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 's1', name: 'ToolSearch', input: { query: 'weather' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 's1',
            content: names.map((tool_name) => ({ type: 'tool_reference' as const, tool_name })),
          },
        ],
      },
    ];
    const sent = (messages: MessagesRequest['messages']) =>
      (toChatPrompt({ model: 'acme/m', messages, tools }).tools as { function: { name: string } }[]).map(
        (tool) => tool.function.name,
      );
    it.each([
      ['before any search: only the tools that are not deferred', [{ role: 'user', content: 'Hi' }], ['ToolSearch']],
      ['after a search found one', searched(['weather']), ['ToolSearch', 'weather']],
      ['after a search found both', searched(['stocks', 'weather']), ['ToolSearch', 'weather', 'stocks']],
    ] as [string, MessagesRequest['messages'], string[]][])('%s', (_title, messages, names) => {
      expect(sent(messages)).toEqual(names);
    });
  });

  it('count_tokens translates only the prompt', () => {
    expect(toChatPrompt({ model: 'acme/m', messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      model: 'acme/m',
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });
});

describe('OpenAI completion → Anthropic message', () => {
  const stops: [string, unknown, unknown, string[] | undefined, boolean, string, string | null][] = [
    ['stop', 'stop', null, undefined, false, 'end_turn', null],
    ['stop on an EOS token id', 'stop', 151645, ['END'], false, 'end_turn', null],
    ['stop on a requested stop string', 'stop', 'END', ['END'], false, 'stop_sequence', 'END'],
    ['stop string not requested', 'stop', 'END', undefined, false, 'end_turn', null],
    ['length', 'length', null, undefined, false, 'max_tokens', null],
    ['tool_calls', 'tool_calls', null, undefined, true, 'tool_use', null],
    ['tool calls finished with stop', 'stop', null, undefined, true, 'tool_use', null],
    ['content_filter', 'content_filter', null, undefined, false, 'refusal', null],
  ];
  it.each(stops)('stop reason: %s', (_title, finish, matched, sequences, tools, reason, sequence) => {
    expect(stopReasonOf(finish, matched, sequences, tools)).toEqual({ stop_reason: reason, stop_sequence: sequence });
  });

  it('usage: cache reads are taken out of input_tokens', () => {
    expect(usageOf({ prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 60 } })).toEqual(
      {
        input_tokens: 40,
        output_tokens: 7,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 60,
      },
    );
    expect(usageOf(undefined)).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });

  it('orders thinking, text and tool_use blocks, parses arguments, mints a msg_ id and echoes the model', () => {
    const message = toAnthropicMessage(
      {
        id: 'chatcmpl-1',
        choices: [
          {
            message: {
              content: 'Checking.',
              reasoning_content: 'Need the tool.',
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
                { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 9 },
      },
      'acme/m',
      undefined,
    );
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_[\w-]{24}$/),
      type: 'message',
      role: 'assistant',
      model: 'acme/m',
      content: [
        { type: 'thinking', thinking: 'Need the tool.', signature: expect.any(String) },
        { type: 'text', text: 'Checking.', citations: null },
        { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'call_2', name: 'weather', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('leaves out an empty text block', () => {
    const message = toAnthropicMessage(
      { choices: [{ message: { content: '' }, finish_reason: 'length' }] },
      'acme/m',
      [],
    );
    expect(message).toMatchObject({ content: [], stop_reason: 'max_tokens' });
  });
});

describe('Messages validation', () => {
  const context = (modalities?: string[]) => ({
    model: upstreamModel(modalities),
    allowedMediaHosts: new Set(['ok.example']),
  });
  const refused = (fields: Partial<MessagesRequest>, modalities?: string[]) =>
    thrownProblem(() => validateMessages(request(fields), context(modalities)));
  const user = (...content: unknown[]) => ({ messages: [{ role: 'user', content }] }) as Partial<MessagesRequest>;
  const image = (source: unknown) => ({ type: 'image', source });
  const cases: [string, Partial<MessagesRequest>, string[] | undefined, string, RegExp][] = [
    ['audio block', user({ type: 'audio', source: {} }), undefined, 'messages.0.content.0', /\/v1\/chat\/completions/],
    ['video block', user({ type: 'video', source: {} }), ['video'], 'messages.0.content.0', /\/v1\/chat\/completions/],
    ['input_audio part', user({ type: 'input_audio' }), undefined, 'messages.0.content.0', /audio and video/],
    [
      'tool_use in a user turn',
      user({ type: 'tool_use', id: 'a', name: 'b', input: {} }),
      undefined,
      'messages.0.content.0.type',
      /not allowed/,
    ],
    ['unknown block type', user({ type: 'banana' }), undefined, 'messages.0.content.0.type', /'banana'/],
    ['text without text', user({ type: 'text' }), undefined, 'messages.0.content.0.text', /required/],
    [
      'image on a text-only model',
      user(image({ type: 'url', url: 'https://ok.example/a.png' })),
      undefined,
      'messages.0.content.0',
      /image/,
    ],
    [
      'image URL off the allowlist',
      user(image({ type: 'url', url: 'http://169.254.169.254/' })),
      ['image'],
      'messages.0.content.0.source.url',
      /allowlist/,
    ],
    [
      'file image source',
      user(image({ type: 'file', file_id: 'f' })),
      ['image'],
      'messages.0.content.0.source.type',
      /file/,
    ],
    [
      'bad media type',
      user(image({ type: 'base64', media_type: 'image/tiff', data: 'AA' })),
      ['image'],
      'messages.0.content.0.source.media_type',
      /image\/png/,
    ],
    [
      '10 MB base64 image',
      user(image({ type: 'base64', media_type: 'image/png', data: 'A'.repeat(10 * 1024 * 1024) })),
      ['image'],
      'messages.0.content.0.source.base64',
      /exceeds 5 MB/,
    ],
    [
      'server tool',
      { tools: [{ type: 'web_search_20250305', name: 'web_search' } as never] },
      undefined,
      'tools.0.type',
      /server tool/,
    ],
    ['tool without input_schema', { tools: [{ name: 'f' } as never] }, undefined, 'tools.0.input_schema', /required/],
    [
      'audio inside a tool result',
      user({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'audio' }] }),
      undefined,
      'messages.0.content.0.content.0',
      /audio/,
    ],
    [
      'thinking in a user turn',
      user({ type: 'thinking', thinking: 'x' }),
      undefined,
      'messages.0.content.0.type',
      /not allowed/,
    ],
    [
      'a PDF document',
      user({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } }),
      undefined,
      'messages.0.content.0.source',
      /PDF files\) are not supported.*'text' or 'content' source/,
    ],
    [
      'a document by URL',
      user({ type: 'document', source: { type: 'url', url: 'https://ok.example/a.pdf' } }),
      undefined,
      'messages.0.content.0.source',
      /'url' document sources/,
    ],
    [
      'a text document of another media type',
      user({ type: 'document', source: { type: 'text', media_type: 'text/html', data: '<p>' } }),
      undefined,
      'messages.0.content.0.source.media_type',
      /text\/plain/,
    ],
    [
      'an image inside a document for a text-only model',
      user({
        type: 'document',
        source: { type: 'content', content: [image({ type: 'base64', media_type: 'image/png', data: 'AA' })] },
      }),
      undefined,
      'messages.0.content.0.source.content.0',
      /does not accept image input/,
    ],
    [
      'a tool_reference to a tool the request does not define',
      user({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_reference', tool_name: 'nope' }] }),
      undefined,
      'messages.0.content.0.content.0.tool_name',
      /'nope', which is not in `tools`/,
    ],
    [
      'a search_result without a source',
      user({ type: 'search_result', title: 't', content: [] }),
      undefined,
      'messages.0.content.0.source',
      /required/,
    ],
    [
      'a search_result holding an image',
      user({
        type: 'search_result',
        title: 't',
        source: 's',
        content: [image({ type: 'base64', media_type: 'image/png', data: 'AA' })],
      }),
      ['image'],
      'messages.0.content.0.content.0.type',
      /not allowed/,
    ],
    [
      'a tool_reference outside a tool result',
      user({ type: 'tool_reference', tool_name: 'f' }),
      undefined,
      'messages.0.content.0.type',
      /not allowed/,
    ],
    [
      "Anthropic's server-side tool search",
      { tools: [{ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' } as never] },
      undefined,
      'tools.0.type',
      /client.*tool_reference/,
    ],
    [
      'defer_loading that is not a boolean',
      { tools: [{ name: 'f', input_schema: { type: 'object' }, defer_loading: 'yes' } as never] },
      undefined,
      'tools.0.defer_loading',
      /boolean/,
    ],
    [
      'a document title that is not a string',
      user({ type: 'document', title: 7, source: { type: 'text', media_type: 'text/plain', data: 'x' } }),
      undefined,
      'messages.0.content.0.title',
      /must be a string/,
    ],
  ];
  it.each(cases)('refuses %s', (_title, fields, modalities, param, message) => {
    const problem = refused(fields, modalities);
    expect(problem).toMatchObject({ status: 400, param });
    expect(problem?.message).toMatch(message);
  });

  it('accepts every supported block in its place', () => {
    expect(
      refused(
        {
          system: [{ type: 'text', text: 's' }],
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } },
                { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'd' }, title: null },
                { type: 'document', source: { type: 'content', content: 'd' }, context: 'c' },
              ],
            },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: 't', signature: 's' },
                { type: 'redacted_thinking', data: 'd' },
                { type: 'text', text: 'x' },
                { type: 'tool_use', id: 'i', name: 'n', input: {} },
              ],
            },
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: 'i',
                  content: [
                    { type: 'text', text: 'r' },
                    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } },
                    { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'd' } },
                    { type: 'search_result', title: 't', source: 's', content: [{ type: 'text', text: 'x' }] },
                    { type: 'tool_reference', tool_name: 'n' },
                    { type: 'browser_state', tabs: [] },
                  ],
                },
                { type: 'search_result', title: 't', source: 's', content: [] },
              ],
            },
          ],
          tools: [{ name: 'n', input_schema: { type: 'object' }, defer_loading: true }],
        },
        ['image'],
      ),
    ).toBeUndefined();
  });
});

describe('Anthropic errors and models', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [422, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'overloaded_error'],
    [504, 'timeout_error'],
  ])('HTTP %i is %s', (status, type) => {
    expect(anthropicErrorType(status)).toBe(type);
  });

  it('an exhausted budget tells the SDK not to retry; other 429s may be retried', () => {
    expect(anthropicErrorHeaders({ status: 429, code: 'budget_exceeded' })).toEqual({ 'x-should-retry': 'false' });
    expect(anthropicErrorHeaders({ status: 429, code: 'rate_limited' })).toEqual({});
    expect(JSON.parse(anthropicErrorBody({ status: 404, message: 'no' }, 'req_1'))).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'no' },
      request_id: 'req_1',
    });
  });

  it('pages the model list with after_id and before_id', () => {
    const models = ['a/1', 'a/2', 'a/3'].map((id) =>
      toAnthropicModel({ ...upstreamModel(), id, created: 1_735_689_600 }),
    );
    expect(models[0]).toEqual({
      type: 'model',
      id: 'a/1',
      display_name: '1',
      created_at: '2025-01-01T00:00:00Z',
      max_input_tokens: 4096,
      max_tokens: 4096,
      capabilities: null,
    });
    const ids = (page: { data: { id: string }[] }) => page.data.map((m) => m.id);
    expect(anthropicModelPage(models, {})).toMatchObject({ has_more: false, first_id: 'a/1', last_id: 'a/3' });
    const first = anthropicModelPage(models, { limit: 2 });
    expect([ids(first), first.has_more]).toEqual([['a/1', 'a/2'], true]);
    const next = anthropicModelPage(models, { limit: 2, after_id: 'a/2' });
    expect([ids(next), next.has_more]).toEqual([['a/3'], false]);
    const before = anthropicModelPage(models, { limit: 1, before_id: 'a/3' });
    expect([ids(before), before.has_more]).toEqual([['a/2'], true]);
  });
});
