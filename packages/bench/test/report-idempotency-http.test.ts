import { randomUUID } from 'node:crypto';
import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, seedProject, startBench } from './harness.js';

describeEachDialect('bench reports with an idempotency key', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  const post = (key: string | undefined, second = 1) =>
    bench.call('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: 'localhost',
        start_time: at(second),
        end_time: at(second),
        results: [bmf({ a: { latency: second } })],
        ...(key ? { idempotency_key: key } : {}),
      },
    });
  const reportCount = async () => ((await bench.json('GET', '/v0/projects/the-computer/reports')) as unknown[]).length;

  it('answers a resubmission with the report first stored', async () => {
    const key = randomUUID();
    const first = await post(key);
    expect(first.status).toBe(201);
    const again = await post(key.toUpperCase(), 2);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { uuid: string }).uuid).toBe(((await first.json()) as { uuid: string }).uuid);
    expect((await post(randomUUID(), 3)).status).toBe(201);
    expect((await post(undefined, 4)).status).toBe(201);
    expect(await reportCount()).toBe(3);
  });

  it('stores one report for two concurrent posts with the same key', async () => {
    const key = randomUUID();
    const [a, b] = await Promise.all([post(key), post(key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ja, jb] = (await Promise.all([a.json(), b.json()])) as { uuid: string }[];
    expect(ja?.uuid).toBe(jb?.uuid);
    expect(await reportCount()).toBe(1);
  });

  it('refuses a key that is not a UUID', async () => {
    expect((await post('not-a-uuid')).status).toBe(400);
  });
});
