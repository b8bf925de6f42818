import { describe, expect, it, vi } from 'vitest';
import { AnthropicStream } from '../src/anthropic/stream.js';
import { VLLM_STREAM } from './support/fixed-upstream.js';

const chunk = (choice: unknown, usage?: unknown) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'up', choices: choice === undefined ? [] : [choice], ...(usage ? { usage } : {}) })}\n\n`;
const delta = (d: unknown, finish: string | null = null, stop: unknown = null) => ({
  index: 0,
  delta: d,
  finish_reason: finish,
  stop_reason: stop,
});
const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});
const DONE = 'data: [DONE]\n\n';

/** The translated stream as `[event, data]` pairs, with the minted id replaced. */
function events(text: string): [string, unknown][] {
  return text
    .split('\n\n')
    .filter((e) => e !== '')
    .map((e) => {
      const [eventLine, dataLine] = e.split('\n');
      const data = JSON.parse((dataLine ?? '').slice('data: '.length));
      if (data.message?.id) data.message.id = 'msg_x';
      return [(eventLine ?? '').slice('event: '.length), data];
    });
}

function translate(upstream: string, stopSequences?: string[], pieceSize = upstream.length): [string, unknown][] {
  const stream = new AnthropicStream({ model: 'acme/m', stopSequences, estimatedInputTokens: 99 });
  const bytes = Buffer.from(upstream);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += pieceSize)
    out.push(Buffer.from(stream.push(bytes.subarray(i, i + pieceSize))));
  return events(String(Buffer.concat([...out, Buffer.from(stream.incomplete)])));
}

const start = (input: number, output = 0) => [
  'message_start',
  {
    type: 'message_start',
    message: {
      id: 'msg_x',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'acme/m',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  },
];
const blockStart = (index: number, block: unknown) => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: block },
];
const blockDelta = (index: number, d: unknown) => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta: d },
];
const blockStop = (index: number) => ['content_block_stop', { type: 'content_block_stop', index }];
const PING = ['ping', { type: 'ping' }];
const end = (stop_reason: string, stop_sequence: string | null, input: number, output: number) => [
  [
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason, stop_sequence },
      usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 0 },
    },
  ],
  ['message_stop', { type: 'message_stop' }],
];

// The upstream side of the SDK's fixture `basic_response.txt` (llm-gateway.md §2.4), as vLLM streams it.
const BASIC =
  chunk(delta({ role: 'assistant', content: '' }), usage(11, 0)) +
  chunk(delta({ content: 'Hello' }), usage(11, 1)) +
  chunk(delta({ content: ' there' }), usage(11, 2)) +
  chunk(delta({}, 'stop', null), usage(11, 6)) +
  chunk(undefined, usage(11, 6)) +
  DONE;

const BASIC_EVENTS = [
  start(11),
  blockStart(0, { type: 'text', text: '' }),
  PING,
  blockDelta(0, { type: 'text_delta', text: 'Hello' }),
  blockDelta(0, { type: 'text_delta', text: ' there' }),
  blockStop(0),
  ...end('end_turn', null, 11, 6),
];

describe('OpenAI stream → Anthropic SSE (golden transcripts)', () => {
  it('basic text response: the order of basic_response.txt', () => {
    expect(translate(BASIC)).toEqual(BASIC_EVENTS);
  });

  it.each([1, 7, 64])('gives the same events when the upstream arrives in %i-character pieces', (size) => {
    expect(translate(BASIC, undefined, size)).toEqual(BASIC_EVENTS);
  });

  it('tool use (tool_use_response.txt): text, then a tool_use block with input_json_delta fragments', () => {
    const upstream =
      chunk(delta({ role: 'assistant', content: '' }), usage(30, 0)) +
      chunk(delta({ content: 'Let me check.' }), usage(30, 3)) +
      chunk(
        delta({
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        }),
        usage(30, 5),
      ) +
      chunk(delta({ tool_calls: [{ index: 0, function: { arguments: '{"location":' } }] }), usage(30, 8)) +
      chunk(delta({ tool_calls: [{ index: 0, function: { arguments: ' "Paris"}' } }] }), usage(30, 10)) +
      chunk(delta({}, 'tool_calls'), usage(30, 11)) +
      DONE;
    expect(translate(upstream)).toEqual([
      start(30),
      blockStart(0, { type: 'text', text: '' }),
      PING,
      blockDelta(0, { type: 'text_delta', text: 'Let me check.' }),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} }),
      blockDelta(1, { type: 'input_json_delta', partial_json: '{"location":' }),
      blockDelta(1, { type: 'input_json_delta', partial_json: ' "Paris"}' }),
      blockStop(1),
      ...end('tool_use', null, 30, 11),
    ]);
  });

  it('thinking: thinking_delta, then one signature_delta before the block closes', () => {
    const upstream =
      chunk(delta({ role: 'assistant', reasoning: 'Hmm' }), usage(5, 1)) +
      chunk(delta({ reasoning_content: ', easy.' }), usage(5, 2)) +
      chunk(delta({ content: '4' }), usage(5, 3)) +
      chunk(delta({}, 'stop'), usage(5, 3)) +
      DONE;
    expect(translate(upstream)).toEqual([
      start(5, 1),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      PING,
      blockDelta(0, { type: 'thinking_delta', thinking: 'Hmm' }),
      blockDelta(0, { type: 'thinking_delta', thinking: ', easy.' }),
      blockDelta(0, { type: 'signature_delta', signature: 'atrium' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '' }),
      blockDelta(1, { type: 'text_delta', text: '4' }),
      blockStop(1),
      ...end('end_turn', null, 5, 3),
    ]);
  });

  it('interleaved parallel tool calls: the second is buffered and sent whole after the first closes', () => {
    const call = (index: number, fn: unknown, id?: string) => ({
      tool_calls: [{ index, ...(id ? { id } : {}), function: fn }],
    });
    const upstream =
      chunk(delta(call(0, { name: 'a', arguments: '{"x"' }, 'c0')), usage(9, 1)) +
      chunk(delta(call(1, { name: 'b', arguments: '{"y"' }, 'c1')), usage(9, 2)) +
      chunk(delta(call(0, { arguments: ':1}' })), usage(9, 3)) +
      chunk(delta(call(1, { arguments: ':2}' })), usage(9, 4)) +
      chunk(delta({}, 'tool_calls'), usage(9, 4)) +
      DONE;
    expect(translate(upstream)).toEqual([
      start(9, 1),
      blockStart(0, { type: 'tool_use', id: 'c0', name: 'a', input: {} }),
      PING,
      blockDelta(0, { type: 'input_json_delta', partial_json: '{"x"' }),
      blockDelta(0, { type: 'input_json_delta', partial_json: ':1}' }),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'c1', name: 'b', input: {} }),
      blockDelta(1, { type: 'input_json_delta', partial_json: '{"y":2}' }),
      blockStop(1),
      ...end('tool_use', null, 9, 4),
    ]);
  });

  it('a matched stop string is stop_sequence; cached prompt tokens are cache reads', () => {
    const cached = { ...usage(50, 2), prompt_tokens_details: { cached_tokens: 32 } };
    const upstream = chunk(delta({ content: 'ab' }), cached) + chunk(delta({}, 'stop', 'END'), cached) + DONE;
    const out = translate(upstream, ['END']);
    expect(out.at(-2)).toEqual([
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' },
        usage: { input_tokens: 18, output_tokens: 2, cache_read_input_tokens: 32 },
      },
    ]);
  });

  it('length is max_tokens; without usage from upstream the estimate stands in for input_tokens', () => {
    const out = translate(chunk(delta({ content: 'a' })) + chunk(delta({}, 'length')) + DONE);
    expect(out[0]).toEqual(start(99));
    expect(out.at(-2)).toEqual(end('max_tokens', null, 99, 0)[0]);
  });

  it('an empty completion still starts and ends the message', () => {
    expect(translate(chunk(delta({}, 'stop'), usage(3, 0)) + DONE)).toEqual([start(3), ...end('end_turn', null, 3, 0)]);
  });

  it('an upstream error chunk becomes an error event and ends the stream', () => {
    const upstream =
      chunk(delta({ content: 'a' }), usage(3, 1)) +
      'data: {"error":{"message":"secret prompt text","type":"InternalServerError","code":500}}\n\n' +
      DONE;
    const out = translate(upstream);
    expect(out.slice(-1)).toEqual([
      ['error', { type: 'error', error: { type: 'api_error', message: 'the model server failed while generating' } }],
    ]);
    expect(JSON.stringify(out)).not.toContain('secret');
  });

  it('an upstream that ends without [DONE] ends with an error event', () => {
    const out = translate(chunk(delta({ content: 'a' }), usage(3, 1)));
    expect(out.map(([event]) => event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'error',
    ]);
  });

  it('an unterminated [DONE] is still the end', () => {
    expect(translate(BASIC.slice(0, -1)).at(-1)).toEqual(['message_stop', { type: 'message_stop' }]);
  });

  it('keeps the latest running usage for accounting, and a broken upstream gets one error event', () => {
    const stream = new AnthropicStream({ model: 'acme/m', stopSequences: undefined, estimatedInputTokens: 1 });
    stream.push(Buffer.from(chunk(delta({ content: 'a' }), usage(7, 1)) + chunk(delta({ content: 'b' }), usage(7, 2))));
    expect(stream.usage).toMatchObject({ input_tokens: 7, output_tokens: 2 });
    expect(stream.broken).toContain('event: error');
    expect(stream.broken).toBe('');
    expect(stream.incomplete).toBe('');
  });

  it('the unparsed fast path for content-only chunks gives what parsing gives (escapes, running usage, null usage)', () => {
    const raw = (content: string, usageJson: string) =>
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":null}],"usage":${usageJson}}\n\n`;
    const upstream =
      raw('', '{"prompt_tokens":14,"total_tokens":14,"completion_tokens":0}') +
      raw(
        'say "hi"\\n',
        '{"prompt_tokens":14,"total_tokens":15,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":4}}',
      ) +
      raw('ünï', 'null') +
      chunk(delta({}, 'stop'), usage(14, 2)) +
      DONE;
    expect(translate(upstream)).toEqual([
      start(14),
      blockStart(0, { type: 'text', text: '' }),
      PING,
      blockDelta(0, { type: 'text_delta', text: 'say "hi"\\n' }),
      blockDelta(0, { type: 'text_delta', text: 'ünï' }),
      blockStop(0),
      ...end('end_turn', null, 14, 2),
    ]);
  });

  it.each([
    ['with logprobs: null', ',"logprobs":null'],
    ['without logprobs', ''],
  ])('content-only chunks (%s) are translated without parsing JSON', (_name, logprobs) => {
    const raw = (content: string) =>
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}${logprobs},"finish_reason":null}],"usage":{"prompt_tokens":14,"completion_tokens":1}}\n\n`;
    const stream = new AnthropicStream({ model: 'acme/m', stopSequences: undefined, estimatedInputTokens: 1 });
    stream.push(Buffer.from(chunk(delta({ content: 'a' }), usage(14, 1))));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const out = String(stream.push(Buffer.from(raw('b') + raw('ç "d"'))));
      expect(parse).not.toHaveBeenCalled();
      expect(events(out)).toEqual([
        blockDelta(0, { type: 'text_delta', text: 'b' }),
        blockDelta(0, { type: 'text_delta', text: 'ç "d"' }),
      ]);
    } finally {
      parse.mockRestore();
    }
  });

  it('a recorded vLLM stream', () => {
    expect(translate(VLLM_STREAM)).toEqual([
      start(14),
      blockStart(0, { type: 'text', text: '' }),
      PING,
      blockDelta(0, { type: 'text_delta', text: 'Paris' }),
      blockDelta(0, { type: 'text_delta', text: '.' }),
      blockStop(0),
      ...end('end_turn', null, 14, 2),
    ]);
  });
});
