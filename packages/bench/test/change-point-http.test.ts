import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { corpusSeries } from '../../../bench/lib/change-point-corpus.js';
import { replayChangePoint } from '../../../bench/lib/change-point-score.js';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

/** Latency around `level` with a little deterministic noise (±2 %). */
const around = (level: number, i: number) => level * (1 + (((i * 7) % 5) - 2) / 100);

const CHANGE_POINT = { test: 'change_point', max_sample_size: 64, upper_boundary: 0.99 };

describeEachDialect('bench change_point thresholds over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  const path = (rest: string) => `/v0/projects/the-computer${rest}`;
  const report = (branch: string, i: number, latency: number, extra: Record<string, unknown> = {}) =>
    bench.json('POST', path('/reports'), {
      token: bench.muriel,
      body: {
        branch,
        testbed: 'localhost',
        hash: (i + 1).toString(16).padStart(40, '0'),
        start_time: at(i * 10),
        end_time: at(i * 10 + 1),
        results: [bmf({ 'tests::fib': { latency } })],
        settings: { adapter: 'json' },
        ...extra,
      },
    });
  /** Reports `levels` on main in turn (from index `from`), answering every report's alerts. */
  const series = async (levels: readonly number[], from = 0, extra: Record<string, unknown> = {}) => {
    const alerts: Json[][] = [];
    for (const [k, level] of levels.entries()) {
      const i = from + k;
      alerts.push((await report('main', i, around(level, i), k === 0 ? extra : {})).alerts);
    }
    return alerts;
  };
  const steps = (...runs: [number, number][]) => runs.flatMap(([level, count]) => Array(count).fill(level));

  it('creates, updates, lists and clones a change_point threshold, and refuses a boundary outside [0.5, 1)', async () => {
    const create = (body: Record<string, unknown>) =>
      bench.call('POST', path('/thresholds'), {
        token: bench.muriel,
        body: { branch: 'main', testbed: 'localhost', ...body },
      });
    // A new project starts with t-test thresholds on latency and throughput: update one, replace the other.
    const seeded = await bench.json('GET', path('/thresholds'), { token: bench.muriel });
    const seededOf = (slug: string) => seeded.find((t: Json) => t.measure.slug === slug).uuid;
    const updated = await bench.json('PUT', path(`/thresholds/${seededOf('latency')}`), {
      token: bench.muriel,
      body: { ...CHANGE_POINT, lower_boundary: 0.95 },
    });
    expect(updated.model).toMatchObject({ ...CHANGE_POINT, lower_boundary: 0.95 });
    const removed = await bench.call('DELETE', path(`/thresholds/${seededOf('throughput')}`), { token: bench.muriel });
    expect(removed.status).toBe(204);
    for (const bad of [
      { lower_boundary: 1 },
      { upper_boundary: 0.4 },
      { upper_boundary: 0.99, min_sample_size: 1 },
      { upper_boundary: 0.99, max_sample_size: 257 },
    ]) {
      const refused = await create({ measure: 'throughput', test: 'change_point', ...bad });
      expect(refused.status).toBe(400);
    }
    const throughput = await create({
      measure: 'throughput',
      test: 'change_point',
      lower_boundary: 0.999,
      window: 86400,
    });
    expect(throughput.status).toBe(201);
    expect(((await throughput.json()) as Json).model).toMatchObject({
      test: 'change_point',
      lower_boundary: 0.999,
      window: 86400,
    });
    const listed = await bench.json('GET', path('/thresholds'), { token: bench.muriel });
    expect(listed.map((t: Json) => [t.measure.slug, t.model.test]).sort()).toEqual([
      ['latency', 'change_point'],
      ['throughput', 'change_point'],
    ]);

    await report('main', 0, 100);
    const spec = await bench.json('GET', '/v0/server/spec');
    const created = spec.paths['/v0/projects/{project}/thresholds'].post.requestBody.content['application/json'].schema;
    expect(created.properties.test.description).toContain("change_point, Atrium's extension");

    const feature = await report('feature', 1, 100, { start_point: { branch: 'main', clone_thresholds: true } });
    expect(feature.results[0][0].measures[0].threshold.model).toMatchObject({ test: 'change_point' });
    const cloned = await bench.json('GET', path('/thresholds?branch=feature'), { token: bench.muriel });
    expect(cloned.map((t: Json) => [t.measure.slug, t.model.test]).sort()).toEqual([
      ['latency', 'change_point'],
      ['throughput', 'change_point'],
    ]);
  });

  it('alerts once, on the report that confirms a step, names the change, and judges later reports by the new regime', async () => {
    const alerts = await series(steps([100, 20], [130, 20]), 0, { thresholds: { models: { latency: CHANGE_POINT } } });
    const alerting = alerts.flatMap((list, i) => list.map(() => i));
    expect(alerting).toHaveLength(1);
    const at = alerting[0] as number;
    expect(at).toBeGreaterThanOrEqual(20);
    expect(at).toBeLessThan(26);
    const alert = alerts[at]?.[0];
    expect(alert).toMatchObject({
      limit: 'upper',
      status: 'active',
      threshold: { model: { test: 'change_point' } },
      change_point: {
        direction: 'increase',
        from_version: 19,
        to_version: 20,
        to_hash: (21).toString(16).padStart(40, '0'),
      },
    });
    expect(alert.change_point.shift).toBeCloseTo(0.3, 1);
    expect(alert.boundary).toEqual({ baseline: alert.change_point.before, lower_limit: null, upper_limit: null });

    const listed = await bench.json('GET', path('/alerts'), { token: bench.muriel });
    expect(listed).toHaveLength(1);
    expect(listed[0].change_point).toEqual(alert.change_point);
    const dismissed = await bench.json('PATCH', path(`/alerts/${alert.uuid}`), {
      token: bench.muriel,
      body: { status: 'dismissed' },
    });
    expect(dismissed).toMatchObject({ status: 'dismissed', change_point: alert.change_point });
    expect(await bench.json('GET', path('/alerts?status=active'), { token: bench.muriel })).toEqual([]);

    const { threshold, benchmark } = alert;
    const query = new URLSearchParams({
      branches: threshold.branch.uuid,
      testbeds: threshold.testbed.uuid,
      benchmarks: benchmark.uuid,
      measures: threshold.measure.uuid,
    });
    const perf = await bench.json('GET', path(`/perf?${query}`), { token: bench.muriel });
    expect(perf.results[0].change_points).toEqual([alert.change_point]);
    const first = perf.results[0].metrics.find((m: Json) => m.metric.uuid === alert.change_point.to_metric);
    expect(first.version.number).toBe(20);
    const image = await bench.call('GET', path(`/perf/img?${query}`), { token: bench.muriel });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('records an improvement under an upper-only threshold without alerting, and restarts the regime there', async () => {
    const alerts = await series(steps([100, 20], [70, 15], [100, 15]), 0, {
      thresholds: { models: { latency: CHANGE_POINT } },
    });
    const alerting = alerts.flatMap((list, i) => list.map(() => i));
    // The drop is recorded but not alerted; the return to 100 is an increase from the new regime: one alert.
    expect(alerting).toHaveLength(1);
    expect(alerting[0]).toBeGreaterThanOrEqual(35);
    const alert = alerts[alerting[0] as number]?.[0];
    expect(alert.change_point).toMatchObject({ direction: 'increase', from_version: 34, to_version: 35 });
    expect(alert.change_point.before).toBeCloseTo(70, -1);
  });

  it('does not alert again on a branch started after the change, nor after the report that found it is deleted', async () => {
    const alerts = await series(steps([100, 20], [130, 10]), 0, { thresholds: { models: { latency: CHANGE_POINT } } });
    const found = alerts.flat();
    expect(found).toHaveLength(1);
    const feature: Json[] = [];
    for (let i = 30; i < 40; i++) {
      const start = i === 30 ? { start_point: { branch: 'main', clone_thresholds: true } } : {};
      feature.push(...(await report('feature', i, around(130, i), start)).alerts);
    }
    expect(feature).toEqual([]);

    // Deleting the report that found the change deletes the change too; the regime starts over.
    const deleted = await bench.call('DELETE', path(`/reports/${found[0].report}`), { token: bench.muriel });
    expect(deleted.status).toBe(204);
    expect(await bench.json('GET', path('/alerts'), { token: bench.muriel })).toEqual([]);
  });

  it('finds a step ~22 reports after the previous one in time: a young regime gets the values before it', async () => {
    // Steps at 25 (+4σ), 47 (−2.5σ) and 69 (+3σ); without the values before a regime only the first is found.
    const corpus = corpusSeries('three-steps', 'up-down-up', 3);
    const model = { ...CHANGE_POINT, lower_boundary: 0.99 };
    const alerting: number[] = [];
    for (const [i, value] of corpus.values.entries()) {
      const extra = i === 0 ? { thresholds: { models: { latency: model } } } : {};
      if ((await report('main', i, value, extra)).alerts.length > 0) alerting.push(i);
    }
    expect(alerting).toEqual(replayChangePoint(corpus, { confidence: 0.99, minSampleSize: 2, maxSampleSize: 64 }));
    expect(alerting).toEqual([28, 51, 72]);
  });

  it('stays quiet on noise with an outlier', async () => {
    const levels = steps([100, 40]);
    levels[20] = 160;
    const alerts = await series(levels, 0, { thresholds: { models: { latency: CHANGE_POINT } } });
    expect(alerts.flat()).toEqual([]);
  });
});
