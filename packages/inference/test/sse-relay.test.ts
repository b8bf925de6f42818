import { describe, expect, it } from 'vitest';
import { SseRelay } from '../src/wire/sse-relay.js';

const USAGE = '{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}';
const content = `data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[{"index":0,"delta":{"content":"\\"usage\\": hi"}}],"usage":${USAGE}}\n\n`;
const finalUsage = `data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[],"usage":${USAGE}}\n\n`;
const noUsage = 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n';
const done = 'data: [DONE]\n\n';
const stripped =
  'data: {"id":"c","object":"chat.completion.chunk","model":"up/m","choices":[{"index":0,"delta":{"content":"\\"usage\\": hi"}}]}\n\n';

/** The relay's answer to `text` arriving as one chunk of bytes, as text. */
const feed = (relay: SseRelay, text: string) => String(relay.push(Buffer.from(text)));

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
    expect(feed(relay, content + finalUsage + done)).toBe(expected);
    expect(relay.lastUsage).toBe(USAGE);
  });

  it.each([1, 2, 7, 64])('passes events through unchanged, whatever the split (%i-byte chunks)', (size) => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    const stream = Buffer.from(noUsage.replace('"x"', '"é → ✓ 🙂"') + noUsage + done);
    const out: Buffer[] = [];
    for (let i = 0; i < stream.length; i += size) out.push(relay.push(stream.subarray(i, i + size)));
    expect(Buffer.concat(out).equals(stream)).toBe(true);
    expect(relay.incomplete.length).toBe(0);
  });

  it('passes a chunk that needs no change on as the very same bytes', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    const chunk = Buffer.from(noUsage + noUsage);
    expect(relay.push(chunk)).toBe(chunk);
  });

  it('reassembles an event split inside the usage object', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    const cut = content.indexOf('total_tokens');
    expect(feed(relay, content.slice(0, cut))).toBe('');
    expect(feed(relay, content.slice(cut))).toBe(stripped);
  });

  it('removes a usage key that comes first or is null', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    expect(feed(relay, `data: {"usage":${USAGE},"id":"c"}\n\n`)).toBe('data: {"id":"c"}\n\n');
    expect(feed(relay, 'data: {"id":"c","usage":null}\n\n')).toBe('data: {"id":"c"}\n\n');
    expect(feed(relay, `data: {"id":"c" , "usage":${USAGE}}\n\n`)).toBe('data: {"id":"c" }\n\n');
    expect(relay.lastUsage).toBe(USAGE);
  });

  it.each([
    ['choices before the model', `data: {"id":"c","choices":[],"model":"up/m","usage":${USAGE}}\n\n`, ''],
    [
      'usage with nested details, blanks before the end',
      `data: {"id":"c","model":"up/m","choices":[{"index":0}],"usage":{"prompt_tokens":5,"prompt_tokens_details":{"cached_tokens":2}} }\r\n\n`,
      'data: {"id":"c","model":"up/m","choices":[{"index":0}] }\r\n\n',
    ],
    ['usage before choices, which are empty', `data: {"id":"c","model":"up/m","usage":${USAGE},"choices":[]}\n\n`, ''],
  ])('finds usage wherever it is: %s', (_name, event, expected) => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    expect(feed(relay, event)).toBe(expected);
    expect(relay.lastUsage).toBeDefined();
  });

  it.each([
    ['the upstream name', '"model":"up/m"', '"model":"pub/\\"m\\""'],
    ['another name the model server loaded', '"model":"Qwen/Qwen3-32B"', '"model":"pub/\\"m\\""'],
    ['a name with escapes, a space after the colon', '"model": "a\\"b\\\\"', '"model": "pub/\\"m\\""'],
  ])('names the public id instead of %s', (_name, upstreamModel, publicModel) => {
    const relay = new SseRelay({ final: true, continuous: true }, 'pub/"m"');
    const event = content.replace('"model":"up/m"', upstreamModel);
    expect(feed(relay, event + event)).toBe(content.replace('"model":"up/m"', publicModel).repeat(2));
  });

  it('keeps an unterminated tail for the caller', () => {
    const relay = new SseRelay({ final: false, continuous: false }, 'up/m');
    expect(feed(relay, 'data: {"id"')).toBe('');
    expect(String(relay.incomplete)).toBe('data: {"id"');
  });
});
