import { MAX_JSON_NESTING, SMALL_BODY_LIMIT } from '@atrium/core';
import { describeEachDialect, NO_STALL, nestedJson, postBody, whileProbingHealth } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { type Bench, startBench } from './harness.js';

const MIB = 1024 * 1024;
// Made before the clock starts: the test's own client shares the server's event loop.
const underTheLimit = nestedJson(4 * MIB - 2);

describeEachDialect('bench: no body from anyone stalls the server (H2)', ({ url }) => {
  let bench: Bench;
  afterEach(() => bench.close());

  it('refuses four parallel 4 MiB nested bodies to /v0/run before parsing them, in Bencher shape', async () => {
    bench = await startBench(url());
    const { result, worstHealthzMs } = await whileProbingHealth(bench.base, () =>
      Promise.all(Array.from({ length: 4 }, () => postBody(bench.base, '/v0/run', underTheLimit))),
    );
    for (const answer of result) {
      expect([answer.status, JSON.parse(answer.body)]).toEqual([
        400,
        {
          request_id: expect.any(String),
          error_code: 'invalid_json',
          message: `request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels`,
        },
      ]);
      expect(answer.ms).toBeLessThan(NO_STALL.answerMs);
    }
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it('answers an unknown route before reading its body (four parallel 4 MiB nested bodies)', async () => {
    bench = await startBench(url());
    const { result, worstHealthzMs } = await whileProbingHealth(bench.base, () =>
      Promise.all(Array.from({ length: 4 }, () => postBody(bench.base, '/v0/no-such-route', underTheLimit))),
    );
    for (const answer of result) {
      expect([answer.status, JSON.parse(answer.body)]).toEqual([
        404,
        { request_id: expect.any(String), error_code: 'not_found', message: 'no route for POST /v0/no-such-route' },
      ]);
      expect(answer.ms).toBeLessThan(NO_STALL.answerMs);
    }
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });

  it(`takes ${SMALL_BODY_LIMIT / 1024} KiB outside the report routes, bodyLimit on them`, async () => {
    bench = await startBench(url());
    const body = Buffer.from(JSON.stringify({ email: 'x'.repeat(SMALL_BODY_LIMIT) }));
    const login = await postBody(bench.base, '/v0/auth/login', body);
    expect([login.status, JSON.parse(login.body).error_code]).toEqual([413, 'body_too_large']);
    const run = await postBody(bench.base, '/v0/run', body);
    expect(run.status).toBe(400);
  });
});
