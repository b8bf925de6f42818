import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { findThreshold, replaceModel } from '../src/storage/thresholds.js';
import { type Bench, type Json, seedProject, startBench } from './harness.js';

describeEachDialect('bench threshold model history over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench, 'private');
  });
  afterEach(() => bench.close());

  const path = (rest: string) => `/v0/projects/the-computer/thresholds${rest}`;

  it('lists every model of a threshold, newest first, with the replaced ones marked and X-Total-Count', async () => {
    // A new project starts with a t-test threshold on main × localhost × latency.
    const thresholds = await bench.json('GET', path(''), { token: bench.muriel });
    const created = thresholds.find((threshold: Json) => threshold.measure.slug === 'latency');
    const put = (body: Record<string, unknown>) =>
      bench.json('PUT', path(`/${created.uuid}`), { token: bench.muriel, body });
    await put({ test: 'static', upper_boundary: 5 });
    await put({ test: null });
    await put({ test: 'iqr', lower_boundary: 2 });

    const response = await bench.call('GET', path(`/${created.uuid}/models?per_page=2`), { token: bench.muriel });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('3');
    const newest = (await response.json()) as Json[];
    expect(newest.map((model) => [model.test, model.replaced === null])).toEqual([
      ['iqr', true],
      ['static', false],
    ]);
    const oldest = await bench.json('GET', path(`/${created.uuid}/models?per_page=2&page=2`), { token: bench.muriel });
    expect(oldest.map((model: Json) => model.test)).toEqual(['t_test']);
    const viewed = await bench.json('GET', path(`/${created.uuid}?model=${oldest[0].uuid}`), { token: bench.muriel });
    expect(viewed.model).toEqual(oldest[0]);
  });

  it('puts the current model first when it was made in the same millisecond as the one it replaced', async () => {
    const [threshold] = await bench.json('GET', path('?per_page=1'), { token: bench.muriel });
    const database = await openBenchDatabase(bench.databaseUrl);
    try {
      const row = await findThreshold(database.db, threshold.project, threshold.uuid);
      if (!row) throw new Error('the threshold is not stored');
      const now = Date.now();
      for (const upper of [1, 2]) {
        const model = { test: 'static', upper_boundary: upper, lower_boundary: null } as const;
        await replaceModel(
          database.db,
          row,
          { ...model, min_sample_size: null, max_sample_size: null, window: null },
          now,
        );
      }
    } finally {
      await database.close();
    }
    const models = await bench.json('GET', path(`/${threshold.uuid}/models`), { token: bench.muriel });
    expect(models.map((model: Json) => [model.test, model.upper_boundary])).toEqual([
      ['static', 2],
      ['static', 1],
      ['t_test', threshold.model.upper_boundary],
    ]);
  });

  it('hides the history of a private project and answers 404 for a missing threshold', async () => {
    const [threshold] = await bench.json('GET', path(''), { token: bench.muriel });
    expect((await bench.call('GET', path(`/${threshold.uuid}/models`))).status).toBe(404);
    expect((await bench.call('GET', path(`/${threshold.uuid}/models`), { token: bench.muriel })).status).toBe(200);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await bench.call('GET', path(`/${missing}/models`), { token: bench.muriel })).status).toBe(404);
  });
});
