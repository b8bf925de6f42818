import { MAX_JSON_NESTING } from '@atrium/core';
import { describeEachDialect, NO_STALL, nestedJson, postBody, whileProbingHealth } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const MB = 1024 * 1024;
const key = { authorization: `Bearer ${TEST_KEY}` };
const tooDeep = Buffer.from(
  `{"model":"acme/m","messages":[{"role":"user","content":${'['.repeat(MAX_JSON_NESTING)}${']'.repeat(MAX_JSON_NESTING)}}]}`,
);
const tooDeepMessage = `request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels`;
// Made before the clock starts: the test's own client shares the server's event loop.
const thirtyMegabytes = nestedJson(30 * MB);
const tenMegabytes = nestedJson(10 * MB);

describeEachDialect('inference: no body from anyone stalls the gateway (H2)', ({ url }) => {
  let gateway: TestGateway;
  afterEach(() => gateway.close());
  const start = async () => {
    gateway = await startGateway({
      database: url(),
      models: [{ id: 'acme/m', contextLength: 4096, backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] } }],
    });
    return gateway.base;
  };

  it('answers an unknown route before reading its 30 MB nested body, in the OpenAI envelope', async () => {
    const base = await start();
    const { result, worstHealthzMs } = await whileProbingHealth(base, () =>
      postBody(base, '/no-such-route', thirtyMegabytes),
    );
    expect(result.status).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      error: {
        message: 'no route for POST /no-such-route',
        type: 'invalid_request_error',
        param: null,
        code: 'not_found',
      },
    });
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it.each([
    ['/ui/signin/password', thirtyMegabytes],
    ['/ui/signout', tenMegabytes],
  ])('refuses JSON on the form route %s before reading it', async (path, body) => {
    const base = await start();
    const { result, worstHealthzMs } = await whileProbingHealth(base, () => postBody(base, path, body));
    expect(result.status).toBe(415);
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it(`refuses a body nested past ${MAX_JSON_NESTING} levels before parsing, OpenAI and Anthropic shapes`, async () => {
    const base = await start();
    for (const path of ['/v1/chat/completions', '/v1/responses']) {
      const openAi = await postBody(base, path, tooDeep, key);
      expect([openAi.status, JSON.parse(openAi.body)], path).toEqual([
        400,
        { error: { message: tooDeepMessage, type: 'invalid_request_error', param: null, code: 'invalid_json' } },
      ]);
    }
    const messages = await postBody(base, '/v1/messages', tooDeep, { 'x-api-key': TEST_KEY });
    expect([messages.status, JSON.parse(messages.body)]).toEqual([
      400,
      {
        type: 'error',
        error: { type: 'invalid_request_error', message: tooDeepMessage },
        request_id: expect.any(String),
      },
    ]);
    const { result, worstHealthzMs } = await whileProbingHealth(base, () =>
      postBody(base, '/v1/embeddings', thirtyMegabytes, key),
    );
    expect(result.status).toBe(400);
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });
});
