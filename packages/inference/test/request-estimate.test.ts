import type { HttpError } from '@atrium/core';
import { describe, expect, it } from 'vitest';
import { modelSchema } from '../src/config.js';
import { wantedPerChoice } from '../src/tenancy/admission-rule.js';
import {
  estimateChatPromptTokens,
  estimateEmbeddingTokens,
  PER_MEDIA_PART,
  reservedPromptTokens,
} from '../src/tenancy/estimate.js';
import { type ChatRequest, requestedChoices, requestedOutputTokens } from '../src/wire/chat.js';
import { validateChatRequest } from '../src/wire/chat-validation.js';
import { checkEmbeddingInputFits, checkPromptFits } from '../src/wire/input-size.js';
import { checkJsonDepth, MAX_JSON_DEPTH } from '../src/wire/json-depth.js';

const user = (content: ChatRequest['messages'][number]['content']) => ({ role: 'user', content });
const chat = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', messages: [user('hi')], ...extra });
const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
/** The estimate of `chat()`: 8 for the generation prompt, 8 per message, 'user' and 'hi'. */
const BASE = 8 + 8 + 4 + 2;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const tool = { type: 'function', function: { name: 'f', parameters: { type: 'object' } } };
const caught = (run: () => void): HttpError | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as HttpError;
  }
};

describe('prompt estimate: every field a chat template can render counts', () => {
  it.each<[string, ChatRequest, number]>([
    ['a text message', chat(), BASE],
    ['multi-byte text counts its UTF-8 bytes', chat({ messages: [user('héé')] }), BASE - 2 + 5],
    ['text parts', chat({ messages: [user([{ type: 'text', text: 'hi' }])] }), BASE - 2 + 4 + 2],
    [
      'an image part counts its allowance, not its payload',
      chat({ messages: [user([image])] }),
      BASE - 2 + PER_MEDIA_PART,
    ],
    ['a refusal part', chat({ messages: [user([{ type: 'refusal', refusal: 'no' }])] }), BASE - 2 + 7 + 2],
    [
      'assistant tool calls and a tool result',
      chat({
        messages: [
          { role: 'assistant', content: null, tool_calls: [tool] },
          { role: 'tool', tool_call_id: 'c', content: 'ok' },
        ],
      }),
      8 + (8 + 9 + 0 + bytes([tool])) + (8 + 4 + 1 + 2),
    ],
    ['tools: their JSON and the template instructions', chat({ tools: [tool] }), BASE + 512 + bytes([tool])],
    ['no tools', chat({ tools: [] }), BASE],
    ['tool_choice', chat({ tool_choice: 'auto' }), BASE + 6],
    ['response_format', chat({ response_format: { type: 'json_object' } }), BASE + bytes({ type: 'json_object' })],
    ['documents', chat({ documents: [{ text: 'abc' }] }), BASE + bytes([{ text: 'abc' }])],
    [
      'chat_template_kwargs',
      chat({ chat_template_kwargs: { enable_thinking: false } }),
      BASE + bytes({ enable_thinking: false }),
    ],
  ])('%s', (_name, request, expected) => {
    expect(estimateChatPromptTokens(request)).toBe(expected);
  });

  it('reserves at most the context length for the prompt', () => {
    const long = chat({ messages: [user('x'.repeat(10_000))] });
    expect(reservedPromptTokens(estimateChatPromptTokens(long), 4096)).toBe(4096);
    expect(reservedPromptTokens(estimateChatPromptTokens(chat()), 4096)).toBe(BASE);
  });
});

describe('output asked: n choices of the output allowance', () => {
  it.each<[string, Partial<ChatRequest>, number]>([
    ['max_tokens', { max_tokens: 20 }, 20],
    ['max_completion_tokens wins', { max_tokens: 20, max_completion_tokens: 30 }, 30],
    ['no limit: what the context leaves', {}, 4096 - BASE],
    ['n choices', { max_tokens: 20, n: 4 }, 80],
    ['n choices without a limit', { n: 3 }, 3 * (4096 - BASE)],
    ['n = null is one choice', { max_tokens: 20, n: null }, 20],
    ['a limit over the context', { max_tokens: 10_000 }, 4096],
  ])('%s', (_name, extra, expected) => {
    const request = chat(extra);
    const ask = { choices: requestedChoices(request), requested: requestedOutputTokens(request), contextLength: 4096 };
    expect(ask.choices * wantedPerChoice(BASE, ask)).toBe(expected);
  });
});

describe('embedding estimate', () => {
  it.each<[string, Parameters<typeof estimateEmbeddingTokens>[0], number]>([
    ['one text', 'abc', 5],
    ['every text of a list', ['abc', 'de'], 5 + 4],
    ['a token array', [1, 2, 3], 3],
    ['every token array', [[1, 2], [3]], 3],
    ['each input at most the context', ['x'.repeat(200), 'ab'], 100 + 4],
  ])('%s', (_name, input, expected) => {
    expect(estimateEmbeddingTokens(input, 100)).toBe(expected);
  });
});

describe('input size before any tokenizer', () => {
  it.each<[string, () => void, string | undefined]>([
    ['a prompt of 8 bytes per token of context', () => checkPromptFits(800, 100, 'messages'), undefined],
    ['a prompt over it', () => checkPromptFits(801, 100, 'messages'), 'messages'],
    ['an embedding text at the limit', () => checkEmbeddingInputFits('x'.repeat(800), 100), undefined],
    ['an embedding text over it', () => checkEmbeddingInputFits('x'.repeat(801), 100), 'input'],
    ['the second text of a list', () => checkEmbeddingInputFits(['a', 'x'.repeat(801)], 100), 'input[1]'],
    ['a token array of the context length', () => checkEmbeddingInputFits(Array(100).fill(1), 100), undefined],
    ['a token array over it', () => checkEmbeddingInputFits([[1], Array(101).fill(1)], 100), 'input[1]'],
  ])('%s', (_name, run, param) => {
    const error = caught(run);
    expect(error && { status: error.status, code: error.code, param: error.param }).toEqual(
      param === undefined ? undefined : { status: 400, code: 'context_length_exceeded', param },
    );
  });
});

describe('JSON depth', () => {
  const nested = (levels: number, leaf: unknown = {}) => {
    let value = leaf;
    for (let i = 1; i < levels; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };
  it.each<[string, Record<string, unknown>, string | undefined]>([
    ['flat', { model: 'm', n: 1 }, undefined],
    ['64 levels with the body', { schema: nested(MAX_JSON_DEPTH - 1) }, undefined],
    ['65 levels', { schema: nested(MAX_JSON_DEPTH) }, 'schema'],
    ['deep arrays', { input: nested(5_000, 1) }, 'input'],
    ['the deep field is named', { model: 'm', tools: [{}], extra: nested(100) }, 'extra'],
  ])('%s', (_name, body, param) => {
    expect(caught(() => checkJsonDepth(body))?.param).toBe(param);
  });
});

describe('fields whose cost the gateway cannot bound', () => {
  const model = modelSchema.parse({
    id: 'a/m',
    contextLength: 1000,
    backend: { type: 'upstream', replicas: ['http://127.0.0.1:1'] },
  });
  it.each<[string, Partial<ChatRequest>, string | undefined]>([
    ['best_of 1 is a no-op', { best_of: 1 }, undefined],
    ['best_of null', { best_of: null }, undefined],
    ['best_of over 1', { best_of: 4 }, 'best_of'],
    ['a request chat_template', { chat_template: '{{ messages }}' }, 'chat_template'],
  ])('%s', (_name, extra, param) => {
    const error = caught(() => validateChatRequest(chat(extra), model, new Set(), BASE));
    expect(error && { status: error.status, param: error.param }).toEqual(
      param === undefined ? undefined : { status: 400, param },
    );
  });
});
