import { describeEachDialect, NO_STALL, nestedJson, postBody, whileProbingHealth } from '@atrium/core/testing';
import { afterEach, expect, it } from 'vitest';
import { type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';

// Made before the clock starts: the test's own client shares the server's event loop.
const thirtyMegabytes = nestedJson(30 * 1024 * 1024);

describeEachDialect('provenance: no body from anyone stalls the service (H2)', ({ dialect, url }) => {
  let api: RunningApi;
  afterEach(() => api.stop());

  it('answers an unknown route with AiiDA 404 before reading its 30 MB nested body', async () => {
    api = await serveArchive(SIMPLE, dialect, url());
    const { result, worstHealthzMs } = await whileProbingHealth(api.base, () =>
      postBody(api.base, '/api/v4/no-such-route', thirtyMegabytes),
    );
    expect(result.status).toBe(404);
    expect(JSON.parse(result.body)).toMatchObject({
      message: 'The requested URL is not found on the server.',
      available_endpoints: expect.any(Array),
    });
    expect(result.ms).toBeLessThan(NO_STALL.answerMs);
    expect(worstHealthzMs).toBeLessThan(NO_STALL.healthzMs);
  });
});
