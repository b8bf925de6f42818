import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, seedProject, startBench } from './harness.js';

describeEachDialect('bench daily rate limits', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { plus: { rateLimiting: { resourcesPerDay: 2, metricsPerDay: 3 } } });
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('answers 429 beyond the daily creations of a resource kind', async () => {
    // The new project's default testbed (localhost) is the first creation of the day.
    expect(
      (await bench.call('POST', '/v0/projects/the-computer/testbeds', { token: bench.muriel, body: { name: 'one' } }))
        .status,
    ).toBe(201);
    const third = await bench.call('POST', '/v0/projects/the-computer/testbeds', {
      token: bench.muriel,
      body: { name: 'three' },
    });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toContain('Daily limit');
    expect(await bench.json('GET', '/v0/projects/the-computer/testbeds')).toHaveLength(2);
  });

  it('answers 429 when a report would exceed the daily metrics, storing nothing', async () => {
    const report = (second: number) =>
      bench.call('POST', '/v0/projects/the-computer/reports', {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'localhost',
          start_time: at(second),
          end_time: at(second),
          results: [bmf({ a: { latency: 1 }, b: { latency: 2 } })],
        },
      });
    expect((await report(0)).status).toBe(201);
    expect((await report(1)).status).toBe(429);
    expect(await bench.json('GET', '/v0/projects/the-computer/reports')).toHaveLength(1);
  });
});

describeEachDialect('bench daily limit on anonymous on-the-fly projects per address', ({ url }) => {
  let bench: Bench;
  afterEach(() => bench.close());

  const run = (project: string, token?: string) =>
    bench.call('POST', '/v0/run', {
      token,
      body: { project, start_time: at(1), end_time: at(1), results: [bmf({ a: { latency: 1 } })] },
    });

  it('answers 429 past the daily limit for anonymous runs but still lets signed-in users create', async () => {
    bench = await startBench(url(), { plus: { rateLimiting: { anonymousProjectsPerDay: 2 } } });
    expect((await run('fresh-one')).status).toBe(201);
    expect((await run('fresh-two')).status).toBe(201);
    const third = await run('fresh-three');
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toContain('Daily limit of 2');
    expect((await run('fresh-one')).status).toBe(201);
    expect((await run('signed-in', bench.muriel)).status).toBe(201);
    expect((await bench.call('GET', '/v0/projects/fresh-three')).status).toBe(404);
  });

  it('creates no anonymous project when the limit is 0', async () => {
    bench = await startBench(url(), { plus: { rateLimiting: { anonymousProjectsPerDay: 0 } } });
    expect((await run('fresh-one')).status).toBe(401);
    expect((await bench.call('GET', '/v0/projects/fresh-one')).status).toBe(404);
  });
});
