import type { HttpError } from '@atrium/core';
import { describe, expect, it } from 'vitest';
import { type ModelConfig, modelSchema } from '../src/config.js';
import { estimateChatPromptTokens } from '../src/tenancy/estimate.js';
import type { ChatRequest } from '../src/wire/chat.js';
import { TOOLS_DISABLED_MESSAGE, validateChatRequest } from '../src/wire/chat-validation.js';
import { classifyPart, mediaUrlOf } from '../src/wire/content-parts.js';

const model = (extra: Record<string, unknown> = {}): ModelConfig =>
  modelSchema.parse({
    id: 'qwen/qwen3-vl',
    contextLength: 1000,
    modalities: ['image'],
    backend: { type: 'upstream', replicas: ['http://127.0.0.1:1'] },
    ...extra,
  });
const thinking = model({ id: 'qwen/qwen3-thinking', capabilities: { tools: false } });
const hosts = new Set(['media.example.org']);
const user = (content: ChatRequest['messages'][number]['content']) => ({ role: 'user', content });
const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'm', messages: [user('hi')], ...extra });
const image = (url: string) => ({ type: 'image_url', image_url: { url } });

function failure(req: ChatRequest, target = model()): HttpError | undefined {
  try {
    validateChatRequest(req, target, hosts, estimateChatPromptTokens(req));
    return undefined;
  } catch (error) {
    return error as HttpError;
  }
}

describe('validateChatRequest', () => {
  it.each<[string, ChatRequest, ModelConfig, string | undefined, RegExp | string | undefined]>([
    ['plain text', request(), model(), undefined, undefined],
    [
      'a data: image on an image model',
      request({ messages: [user([image('data:image/png;base64,AAAA')])] }),
      model(),
      undefined,
      undefined,
    ],
    [
      'an allowlisted image URL',
      request({ messages: [user([image('https://media.example.org/a.png')])] }),
      model(),
      undefined,
      undefined,
    ],
    [
      'a remote image URL',
      request({ messages: [user([image('https://evil.example/a.png')])] }),
      model(),
      'media_url_not_allowed',
      /messages\[0\]\.content\[0\]/,
    ],
    [
      'a file: URL',
      request({ messages: [user([image('file:///etc/passwd')])] }),
      model(),
      'media_url_not_allowed',
      undefined,
    ],
    [
      'audio on an image-only model',
      request({ messages: [user([{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }])] }),
      model(),
      'unsupported_modality',
      /audio input, which model 'qwen\/qwen3-vl' does not accept/,
    ],
    [
      'video shorthand on a text model',
      request({ messages: [user([{ video_url: 'data:video/mp4;base64,AA' }])] }),
      model({ modalities: [] }),
      'unsupported_modality',
      /video/,
    ],
    [
      'precomputed embeddings',
      request({ messages: [user([{ type: 'image_embeds', image_embeds: 'AA' }])] }),
      model(),
      'invalid_content_part',
      /image_embeds/,
    ],
    [
      'tools on a -thinking model',
      request({ tools: [{ type: 'function', function: { name: 'f' } }] }),
      thinking,
      'tools_not_supported',
      TOOLS_DISABLED_MESSAGE,
    ],
    [
      'tool_choice auto on a -thinking model',
      request({ tool_choice: 'auto' }),
      thinking,
      'tools_not_supported',
      TOOLS_DISABLED_MESSAGE,
    ],
    [
      'tool_choice none on a -thinking model',
      request({ tools: [{ type: 'function' }], tool_choice: 'none' }),
      thinking,
      undefined,
      undefined,
    ],
    [
      'tools on a tool model',
      request({ tools: [{ type: 'function', function: { name: 'f' } }] }),
      model(),
      undefined,
      undefined,
    ],
    [
      'output over the context',
      request({ max_tokens: 999 }),
      model(),
      'context_length_exceeded',
      /maximum context length is 1000 tokens\. However, you requested 1005 tokens \(about 6 in the messages, 999 in the completion\)/,
    ],
    [
      'max_completion_tokens wins',
      request({ max_tokens: 999, max_completion_tokens: 10 }),
      model(),
      undefined,
      undefined,
    ],
    [
      'stream_options without stream',
      request({ stream_options: { include_usage: true } }),
      model(),
      'invalid_request',
      /stream=True/,
    ],
  ])('%s', (_name, req, target, code, message) => {
    const error = failure(req, target);
    expect(error?.code).toBe(code);
    if (message !== undefined) expect(error?.message).toMatch(message);
    if (code !== undefined) expect(error?.status).toBe(400);
  });

  // The prompt estimate of user('x'.repeat(3960)) is 8 + 8 + 4 + 3960 = 3980 bytes: about 995 tokens at 4 per token.
  it.each([
    [5, undefined],
    [6, 'context_length_exceeded'],
  ])('the context check takes 4 bytes per token of the prompt estimate (max_tokens %i)', (max_tokens, code) => {
    expect(failure(request({ messages: [user('x'.repeat(3960))], max_tokens }))?.code).toBe(code);
  });
});

describe('content parts and media URLs', () => {
  it.each([
    [{ type: 'text', text: 'a' }, { modality: 'text' }],
    [
      { type: 'image_url', image_url: { url: 'data:x' } },
      { modality: 'image', url: 'data:x' },
    ],
    [{ image_url: 'https://h/a.png' }, { modality: 'image', url: 'https://h/a.png' }],
    [{ type: 'input_audio', input_audio: { data: 'AA' } }, { modality: 'audio' }],
    [
      { type: 'audio_url', audio_url: { url: 'data:a' } },
      { modality: 'audio', url: 'data:a' },
    ],
    [
      { type: 'input_video', input_video: { url: 'data:v' } },
      { modality: 'video', url: 'data:v' },
    ],
    [{ type: 'file', file: {} }, { refused: "content part type 'file' is not supported" }],
    [{}, { refused: 'a content part needs a type' }],
  ])('%j → %j', (part, expected) => {
    expect(classifyPart(part)).toEqual(expected);
  });

  const OFF_LIST = 'only data: URLs, or http(s) URLs on the configured allowlist, are accepted';
  const USER_INFO = 'a media URL must not carry a user name or password (user:password@host)';
  const AMBIGUOUS = 'a media URL must not contain backslashes or control characters';
  it.each([
    ['data:image/png;base64,AA', { url: 'data:image/png;base64,AA' }],
    ['https://media.example.org/x', { url: 'https://media.example.org/x' }],
    ['http://media.example.org:8080/x', { url: 'http://media.example.org:8080/x' }],
    ['HTTPS://Media.Example.ORG:443/a b/../x.png?q=1 2', { url: 'https://media.example.org/x.png?q=1%202' }],
    ['https://media.example.org.evil.example/x', { refused: OFF_LIST }],
    ['https://media.example.org./x', { refused: OFF_LIST }],
    ['ftp://media.example.org/x', { refused: OFF_LIST }],
    ['file:///etc/passwd', { refused: OFF_LIST }],
    ['not a url', { refused: OFF_LIST }],
    ['http://media.example.org@127.0.0.1/x.png', { refused: USER_INFO }],
    ['http://user:pw@media.example.org/x.png', { refused: USER_INFO }],
    ['http://user@media.example.org/x.png', { refused: USER_INFO }],
    ['http://:pw@media.example.org/x.png', { refused: USER_INFO }],
    ['http://127.0.0.1 @media.example.org/x.png', { refused: USER_INFO }],
    ['http://media.example.org\\@127.0.0.1/x.png', { refused: AMBIGUOUS }],
    ['http://media.example.org/a\\b.png', { refused: AMBIGUOUS }],
    ['http://media.exa\tmple.org/x.png', { refused: AMBIGUOUS }],
    ['http://media.example.org\n@127.0.0.1/x.png', { refused: AMBIGUOUS }],
  ])('%s → %j', (url, expected) => {
    expect(mediaUrlOf(url, hosts)).toEqual(expected);
  });
});
