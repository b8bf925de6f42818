import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

describeEachDialect('bench branches, testbeds, benchmarks, measures and thresholds over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  const path = (rest: string) => `/v0/projects/the-computer/${rest}`;

  it('creates, finds by slug or uuid, lists with search and paging, patches, archives and deletes each kind', async () => {
    for (const [plural, extra] of [
      ['testbeds', {}],
      ['benchmarks', {}],
      ['measures', { units: 'Decibels (dB)' }],
      ['branches', {}],
    ] as const) {
      const created = await bench.json('POST', path(plural), {
        token: bench.muriel,
        body: { name: 'Screams', ...extra },
      });
      expect(created).toMatchObject({ name: 'Screams', slug: 'screams', archived: null });
      expect(await bench.json('GET', path(`${plural}/${created.uuid}`))).toEqual(created);
      expect(
        (await bench.call('POST', path(plural), { token: bench.muriel, body: { name: 'Screams', ...extra } })).status,
      ).toBe(409);
      const twin = await bench.json('POST', path(plural), {
        token: bench.muriel,
        body: { name: 'Other', slug: 'screams', ...extra },
      });
      expect(twin.slug).toMatch(/^screams-[0-9a-z]{8}$/);
      const page = await bench.call('GET', path(`${plural}?per_page=1&page=2&search=SCREAM`));
      expect(page.headers.get('x-total-count')).toBe('2');
      expect(((await page.json()) as { name: string }[]).map((row) => row.name)).toEqual(['Screams']);
      const archived = await bench.json('PATCH', path(`${plural}/screams`), {
        token: bench.muriel,
        body: { archived: true },
      });
      expect(archived.archived).not.toBeNull();
      expect(await bench.json('GET', path(`${plural}?name=Screams`))).toEqual([]);
      expect(await bench.json('GET', path(`${plural}?archived=true`))).toHaveLength(1);
      expect(
        (await bench.call('PATCH', path(`${plural}/screams`), { token: bench.courage, body: { name: 'x' } })).status,
      ).toBe(403);
      expect((await bench.call('DELETE', path(`${plural}/screams`), { token: bench.muriel })).status).toBe(204);
      expect((await bench.call('GET', path(`${plural}/screams`))).status).toBe(404);
    }
    const longName = 'b'.repeat(257);
    expect((await bench.call('POST', path('branches'), { token: bench.muriel, body: { name: longName } })).status).toBe(
      400,
    );
    expect((await bench.call('POST', path('branches'), { token: bench.muriel, body: { name: 'a..b' } })).status).toBe(
      400,
    );
    expect(
      (await bench.call('POST', path('testbeds'), { token: bench.muriel, body: { name: ' padded' } })).status,
    ).toBe(400);
  });

  it('starts a branch at another, keeps its uuid on a new head and silences the old head alerts', async () => {
    const post = (branch: string, second: number, value: number, extra: Record<string, unknown> = {}) =>
      bench.json('POST', path('reports'), {
        token: bench.muriel,
        body: {
          branch,
          testbed: 'localhost',
          start_time: at(second),
          end_time: at(second),
          results: [bmf({ b: { latency: value } })],
          ...extra,
        },
      });
    await post('main', 0, 10, { thresholds: { models: { latency: { test: 'static', upper_boundary: 50 } } } });
    await post('main', 1, 11);
    const feature = await bench.json('POST', path('branches'), {
      token: bench.muriel,
      body: { name: 'feature', start_point: { branch: 'main', clone_thresholds: true, max_versions: 1 } },
    });
    expect(feature.head.start_point).toMatchObject({ version: { number: 1, hash: null } });
    const alerting = await post('feature', 2, 99);
    expect(alerting.alerts).toHaveLength(1);
    expect(alerting.branch.head.version.number).toBe(2);

    const reset = await bench.json('PATCH', path('branches/feature'), {
      token: bench.muriel,
      body: { start_point: { branch: 'main', reset: true } },
    });
    expect(reset.uuid).toBe(feature.uuid);
    expect(reset.head.uuid).not.toBe(feature.head.uuid);
    const old = await bench.json('GET', path(`branches/feature?head=${feature.head.uuid}`));
    expect(old.head.replaced).not.toBeNull();
    expect(await bench.json('GET', path('alerts?status=silenced'))).toHaveLength(1);
    expect(await bench.json('GET', path('alerts?status=active'))).toHaveLength(0);
    const unchanged = await bench.json('PATCH', path('branches/feature'), {
      token: bench.muriel,
      body: { start_point: { branch: 'main' } },
    });
    expect(unchanged.head.uuid).toBe(reset.head.uuid);
    const missingStart = await bench.json('POST', path('branches'), {
      token: bench.muriel,
      body: { name: 'orphan', start_point: { branch: 'no-such-branch' } },
    });
    expect(missingStart.head.start_point).toBeNull();
    expect((await bench.call('DELETE', path('branches/main'), { token: bench.muriel })).status).toBe(409);

    // The old head's metrics stay queryable through perf with `heads`.
    const uuids = async (plural: string) =>
      ((await bench.json('GET', path(plural))) as { uuid: string }[]).map((row) => row.uuid).join(',');
    const dimensions = `testbeds=${await uuids('testbeds')}&benchmarks=${await uuids('benchmarks')}&measures=${await uuids('measures')}`;
    const current = await bench.json('GET', path(`perf?branches=${feature.uuid}&${dimensions}`));
    expect(current.results[0].metrics.map((metric: { metric: { value: number } }) => metric.metric.value)).toEqual([
      10, 11,
    ]);
    const historical = await bench.json(
      'GET',
      path(`perf?branches=${feature.uuid}&heads=${feature.head.uuid}&${dimensions}`),
    );
    expect(historical.results[0].metrics.map((metric: { metric: { value: number } }) => metric.metric.value)).toEqual([
      11, 99,
    ]);
    expect(historical.results[0].branch.head.uuid).toBe(feature.head.uuid);
  });

  it('applies report thresholds and resets the others of the branch and testbed', async () => {
    const post = (second: number, thresholds: Record<string, unknown>) =>
      bench.json('POST', path('reports'), {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'localhost',
          start_time: at(second),
          end_time: at(second),
          results: [bmf({ b: { latency: 1, throughput: 2 } })],
          thresholds,
        },
      });
    await post(0, {
      models: {
        latency: { test: 'static', upper_boundary: 10 },
        throughput: { test: 'z', lower_boundary: 0.9 },
      },
    });
    let thresholds = await bench.json('GET', path('thresholds'));
    expect(thresholds.map((row: { model: { test: string } }) => row.model.test).sort()).toEqual(['static', 'z_score']);
    await post(1, { models: { latency: { test: 'static', upper_boundary: 10 } }, reset: true });
    thresholds = await bench.json('GET', path('thresholds'));
    const byMeasure = Object.fromEntries(
      thresholds.map((row: { measure: { slug: string }; model: unknown }) => [row.measure.slug, row.model]),
    );
    expect(byMeasure.latency).toMatchObject({ test: 'static', upper_boundary: 10 });
    expect(byMeasure.throughput).toBeNull();
  });

  it('creates, validates, replaces, lists and deletes thresholds', async () => {
    // main × localhost × latency has the new project's default threshold: this one is on testbed ci.
    await bench.json('POST', path('testbeds'), { token: bench.muriel, body: { name: 'ci' } });
    const body = {
      branch: 'main',
      testbed: 'ci',
      measure: 'latency',
      test: 't',
      max_sample_size: 64,
      upper_boundary: 0.99,
    };
    const created = await bench.json('POST', path('thresholds'), { token: bench.muriel, body });
    expect(created.model).toMatchObject({ test: 't_test', max_sample_size: 64, upper_boundary: 0.99, replaced: null });
    expect(created.branch.name).toBe('main');
    expect((await bench.call('POST', path('thresholds'), { token: bench.muriel, body })).status).toBe(409);
    for (const bad of [
      { ...body, test: 'static', window: 10 },
      { ...body, upper_boundary: 1.5 },
      { ...body, min_sample_size: 1 },
      { ...body, test: 'nope' },
      { ...body, upper_boundary: undefined, lower_boundary: 2 },
    ]) {
      expect((await bench.call('POST', path('thresholds'), { token: bench.muriel, body: bad })).status).toBe(400);
    }
    expect(
      (await bench.call('POST', path('thresholds'), { token: bench.muriel, body: { ...body, measure: 'nope' } }))
        .status,
    ).toBe(404);

    const replaced = await bench.json('PUT', path(`thresholds/${created.uuid}`), {
      token: bench.muriel,
      body: { test: 'percentage', upper_boundary: 0.1 },
    });
    expect(replaced.model).toMatchObject({ test: 'percentage', upper_boundary: 0.1 });
    const history = await bench.json('GET', path(`thresholds/${created.uuid}?model=${created.model.uuid}`));
    expect(history.model.replaced).not.toBeNull();
    const removed = await bench.json('PUT', path(`thresholds/${created.uuid}`), {
      token: bench.muriel,
      body: { test: null },
    });
    expect(removed.model).toBeNull();
    const listed = await bench.call('GET', path('thresholds?measure=Latency'));
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect((await bench.call('DELETE', path(`thresholds/${created.uuid}`), { token: bench.muriel })).status).toBe(204);
    const left = await bench.json('GET', path('thresholds'));
    expect(left.map((t: { testbed: { slug: string } }) => t.testbed.slug)).toEqual(['localhost', 'localhost']);
  });

  it('answers perf queries per permutation, with limits and errors', async () => {
    // On testbed ci, away from the new project's default thresholds on localhost (the reset keeps the first
    // report from taking them to main × ci).
    for (let i = 0; i < 3; i++) {
      await bench.json('POST', path('reports'), {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'ci',
          thresholds: { reset: true },
          hash: `${i}`.repeat(40),
          start_time: at(i),
          end_time: at(i),
          results: [bmf({ a: { latency: i, throughput: 10 * i }, b: { latency: 100 + i } })],
        },
      });
    }
    const uuids = async (plural: string) =>
      ((await bench.json('GET', path(plural))) as { uuid: string }[]).map((row) => row.uuid).join(',');
    const query = `branches=${await uuids('branches')}&testbeds=${await uuids('testbeds?search=ci')}&benchmarks=${await uuids('benchmarks')}&measures=${await uuids('measures')}`;
    const perf = await bench.json('GET', path(`perf?${query}`));
    expect(perf.project.slug).toBe('the-computer');
    expect(perf.start_time).toBeNull();
    expect(perf.results).toHaveLength(3);
    const [first] = perf.results;
    expect(first.benchmark.name).toBe('a');
    expect(first.metrics.map((metric: Json) => metric.version.number)).toEqual([0, 1, 2]);
    expect(first.metrics[2]).toMatchObject({
      iteration: 0,
      version: { hash: '2'.repeat(40) },
      threshold: null,
      boundary: null,
      alert: null,
    });
    const windowed = await bench.json('GET', path(`perf?${query}&start_time=${Date.parse(at(1))}`));
    expect(windowed.results[0].metrics).toHaveLength(2);

    const image = await bench.call('GET', path(`perf/img?${query}&title=Fib`));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    expect((await bench.call('GET', path('perf?branches=&testbeds=x'))).status).toBe(400);
    const many = Array.from({ length: 16 }, () => crypto.randomUUID()).join(',');
    const tooMany = await bench.call(
      'GET',
      path(`perf?branches=${many}&testbeds=${many}&benchmarks=${many.split(',')[0]}&measures=${many.split(',')[0]}`),
    );
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toContain('256');
    await bench.json('PATCH', '/v0/projects/the-computer', { token: bench.muriel, body: { visibility: 'private' } });
    expect((await bench.call('GET', path(`perf?${query}`))).status).toBe(404);
    expect((await bench.call('GET', path(`perf?${query}`), { token: bench.muriel })).status).toBe(200);
  });
});
