import { describe, expect, it } from 'vitest';
import { SseRelay } from '../src/wire/sse-relay.js';

const USAGE = '{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}';
const content = `data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[{"index":0,"delta":{"content":"\\"usage\\": hi"}}],"usage":${USAGE}}\n\n`;
const finalUsage = `data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[],"usage":${USAGE}}\n\n`;
const noUsage = 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n';
const done = 'data: [DONE]\n\n';
const stripped =
  'data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[{"index":0,"delta":{"content":"\\"usage\\": hi"}}]}\n\n';

describe('SseRelay', () => {
  it.each([
    ['no usage asked: usage removed, usage-only chunk dropped', { final: false, continuous: false }, stripped + done],
    [
      'include_usage: running usage removed, final chunk kept',
      { final: true, continuous: false },
      stripped + finalUsage + done,
    ],
    ['continuous_usage_stats: everything kept', { final: true, continuous: true }, content + finalUsage + done],
  ])('%s', (_name, usage, expected) => {
    const relay = new SseRelay(usage, 'up/m');
    expect(relay.push(content + finalUsage + done)).toBe(expected);
    expect(relay.lastUsage).toBe(USAGE);
  });

  it('passes events without usage through unchanged, whatever the split', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    const stream = noUsage + noUsage + done;
    let out = '';
    for (let i = 0; i < stream.length; i += 7) out += relay.push(stream.slice(i, i + 7));
    expect(out).toBe(stream);
    expect(relay.incomplete).toBe('');
  });

  it('reassembles an event split inside the usage object', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    const cut = content.indexOf('total_tokens');
    expect(relay.push(content.slice(0, cut))).toBe('');
    expect(relay.push(content.slice(cut))).toBe(stripped);
  });

  it('removes a usage key that comes first or is null', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    expect(relay.push(`data: {"usage":${USAGE},"id":"c"}\n\n`)).toBe('data: {"id":"c"}\n\n');
    expect(relay.push('data: {"id":"c","usage":null}\n\n')).toBe('data: {"id":"c"}\n\n');
    expect(relay.lastUsage).toBe(USAGE);
  });

  it.each([
    ['the upstream name', '"model":"up/m"', '"model":"pub/\\"m\\""'],
    ['another name the model server loaded', '"model":"Qwen/Qwen3-32B"', '"model":"pub/\\"m\\""'],
    ['a name with escapes, a space after the colon', '"model": "a\\"b\\\\"', '"model": "pub/\\"m\\""'],
  ])('names the public id instead of %s', (_name, upstreamModel, publicModel) => {
    const relay = new SseRelay({ final: true, continuous: true }, 'pub/"m"');
    const event = content.replace('"model":"up/m"', upstreamModel);
    expect(relay.push(event + event)).toBe(content.replace('"model":"up/m"', publicModel).repeat(2));
  });

  it('keeps an unterminated tail for the caller', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    expect(relay.push('data: {"id"')).toBe('');
    expect(relay.incomplete).toBe('data: {"id"');
  });
});
