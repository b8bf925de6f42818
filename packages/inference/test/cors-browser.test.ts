import {
  type CrossOriginPage,
  chromiumAvailable,
  fetchFromPage,
  launchChromium,
  serveCrossOriginPage,
} from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixedUpstream, startFixedUpstream } from './support/fixed-upstream.js';
import { startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/m';

// biome-ignore lint/suspicious/noExplicitAny: bodies checked field by field
type Body = any;

describe.skipIf(!chromiumAvailable)('inference API from a page on another origin, in Chromium', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;
  let other: CrossOriginPage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    upstream = await startFixedUpstream();
    gateway = await startGateway({
      models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    });
    other = await serveCrossOriginPage();
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(other.origin);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await other?.close();
    await gateway?.close();
    await upstream?.close();
  });

  /** fetch() in the page with the given headers (all but a JSON content type need a preflight). */
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetchFromPage<Body>(page, `${gateway.base}${path}`, { method, headers, body });

  const bearer = { Authorization: `Bearer ${TEST_KEY}` };
  const chat = { model: MODEL, messages: [{ role: 'user', content: 'The capital of France?' }] };

  it('GET /v1/models with a bearer key', async () => {
    const answer = await send('GET', '/v1/models', bearer);
    expect([answer.error, answer.status]).toEqual([undefined, 200]);
    expect(answer.body.data.map((m: { id: string }) => m.id)).toEqual([MODEL]);
    expect(answer.requestId).toMatch(/\S/);
  });

  it('POST /v1/chat/completions with a bearer key and a JSON body', async () => {
    const answer = await send('POST', '/v1/chat/completions', bearer, chat);
    expect([answer.error, answer.status]).toEqual([undefined, 200]);
    expect(answer.body.choices[0].message.content).toBe('Paris.');
  });

  it('POST /v1/messages with the headers of the Anthropic SDK in a browser', async () => {
    const answer = await send(
      'POST',
      '/v1/messages',
      {
        'x-api-key': TEST_KEY,
        'anthropic-version': '2023-06-01',
        'anthropic-dangerous-direct-browser-access': 'true',
      },
      { ...chat, max_tokens: 16 },
    );
    expect([answer.error, answer.status]).toEqual([undefined, 200]);
    expect(answer.body.content.find((block: { type: string }) => block.type === 'text').text).toBe('Paris.');
  });
});
