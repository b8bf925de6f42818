import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';

const ALLOWED = 'images.example.org';

const chat = (url: string) => ({
  model: METERED_MODEL,
  max_tokens: 5,
  messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
});
const messages = (url: string) => ({
  model: METERED_MODEL,
  max_tokens: 5,
  messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url } }] }],
});

const ROUTES = [
  { path: '/v1/chat/completions', body: chat },
  { path: '/v1/messages', body: messages },
] as const;

/** The media URL each request the upstream got carried. */
const forwardedUrls = (gateway: MeteredGateway) =>
  gateway.upstream.bodies.map((body) => {
    const parsed = JSON.parse(body) as { messages: Array<{ content: Array<{ image_url: { url: string } }> }> };
    return parsed.messages[0]?.content[0]?.image_url.url;
  });

/** The error's code and message in the route's own shape (OpenAI's, or Anthropic's on /v1/messages). */
async function refusal(path: string, response: Response): Promise<{ status: number; message: string }> {
  // biome-ignore lint/suspicious/noExplicitAny: both error shapes are checked field by field
  const body: any = await response.json();
  if (path === '/v1/messages') {
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  } else {
    expect(body.error).toMatchObject({ code: 'media_url_not_allowed', type: 'invalid_request_error' });
  }
  return { status: response.status, message: body.error.message };
}

describeEachDialect('media URLs on the allowlist', ({ url }) => {
  let gateway: MeteredGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it.each(ROUTES)('$path refuses user info and characters parsers read differently', async ({ path, body }) => {
    gateway = await startMeteredGateway(url(), { allowedMediaHosts: [ALLOWED] });
    const key = await gateway.newKey(undefined);
    const refused: Array<[media: string, reason: string]> = [
      // WHATWG reads host images.example.org; Python's urllib reads 127.0.0.1:9420.
      [`http://${ALLOWED}\\@127.0.0.1:9420/x.png`, 'backslashes or control characters'],
      [`http://${ALLOWED}\t@127.0.0.1/x.png`, 'backslashes or control characters'],
      [`http://user:secret@${ALLOWED}/x.png`, 'user name or password'],
      [`http://127.0.0.1 @${ALLOWED}/x.png`, 'user name or password'],
      [`http://${ALLOWED}@127.0.0.1/x.png`, 'user name or password'],
      ['http://127.0.0.1/x.png', 'on the configured allowlist'],
    ];
    for (const [media, reason] of refused) {
      const answer = await refusal(path, await gateway.post(path, key.secret, body(media)));
      expect({ media, ...answer }).toEqual({ media, status: 400, message: expect.stringContaining(reason) });
    }
    expect(gateway.upstream.bodies).toEqual([]);
  });

  it.each(ROUTES)('$path forwards the URL as the allowlist read it (normalised)', async ({ path, body }) => {
    gateway = await startMeteredGateway(url(), { allowedMediaHosts: [ALLOWED] });
    const key = await gateway.newKey(undefined);
    const sent = [
      `HTTPS://Images.Example.ORG:443/a/../x.png?size=a b`,
      `https://${ALLOWED}/same.png`,
      `  https://${ALLOWED}/padded.png `,
    ];
    for (const media of sent) expect((await gateway.post(path, key.secret, body(media))).status).toBe(200);
    expect(forwardedUrls(gateway)).toEqual([
      `https://${ALLOWED}/x.png?size=a%20b`,
      `https://${ALLOWED}/same.png`,
      `https://${ALLOWED}/padded.png`,
    ]);
  });

  it('/v1/chat/completions sends the body it checked, not the client text, when it carries a media URL', async () => {
    gateway = await startMeteredGateway(url(), { allowedMediaHosts: [ALLOWED] });
    const key = await gateway.newKey(undefined);
    // JSON.parse keeps the last duplicate key; a parser that keeps the first would read 127.0.0.1.
    const text = JSON.stringify(chat(`https://${ALLOWED}/ok.png`)).replace(
      '"image_url":{"url"',
      '"image_url":{"url":"http://127.0.0.1/x.png","url"',
    );
    expect(text).toContain('127.0.0.1');
    expect((await gateway.post('/v1/chat/completions', key.secret, text)).status).toBe(200);
    expect(gateway.upstream.bodies).toHaveLength(1);
    expect(gateway.upstream.bodies[0]).not.toContain('127.0.0.1');
    expect(forwardedUrls(gateway)).toEqual([`https://${ALLOWED}/ok.png`]);
  });
});
