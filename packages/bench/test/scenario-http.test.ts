import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, seedProject, startBench } from './harness.js';

/** Steady latency around 100 ns with a little deterministic noise. */
const steady = (i: number) => 100 + ((i * 7) % 5) - 2;

describeEachDialect('bench regression scenario over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  const report = (branch: string, second: number, latency: number, extra: Record<string, unknown> = {}) =>
    bench.json('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: {
        branch,
        testbed: 'localhost',
        hash: second.toString(16).padStart(40, '0'),
        start_time: at(second),
        end_time: at(second + 1),
        results: [bmf({ 'tests::fib': { latency } })],
        settings: { adapter: 'json' },
        ...extra,
      },
    });

  it('alerts once on a regression, inherits history on a feature branch, and hides archived alerts', async () => {
    await seedProject(bench);
    const tTest = { test: 't_test', max_sample_size: 64, upper_boundary: 0.99 };
    const first = await report('main', 0, steady(0), { thresholds: { models: { latency: tTest } } });
    const firstMeasure = first.results[0][0].measures[0];
    expect(firstMeasure.threshold.model).toMatchObject({ test: 't_test', max_sample_size: 64, upper_boundary: 0.99 });
    expect(firstMeasure.boundary).toEqual({ baseline: null, lower_limit: null, upper_limit: null });
    for (let i = 1; i < 30; i++) {
      const steadyReport = await report('main', i * 10, steady(i));
      expect(steadyReport.alerts).toEqual([]);
    }
    const regression = await report('main', 300, 150);
    expect(regression.alerts).toHaveLength(1);
    const [alert] = regression.alerts;
    expect(alert).toMatchObject({ limit: 'upper', status: 'active', iteration: 0, metric: { value: 150 } });
    expect(alert.boundary.upper_limit).toBeGreaterThan(100);
    expect(alert.boundary.upper_limit).toBeLessThan(150);
    expect(alert.threshold.branch.name).toBe('main');
    expect(regression.counts).toEqual({ results: [{ benchmarks: 1, measures: 1 }], alerts: { total: 1, active: 1 } });
    expect(regression.branch.head.version.number).toBe(30);

    // A feature branch starting at main, thresholds cloned, sees main's history.
    const feature = await report('feature', 400, steady(3), {
      start_point: { branch: 'main', clone_thresholds: true },
    });
    expect(feature.alerts).toEqual([]);
    expect(feature.branch.head.start_point.version.number).toBe(30);
    expect(feature.results[0][0].measures[0].boundary.upper_limit).toBeGreaterThan(100);
    const featureRegression = await report('feature', 410, 200);
    expect(featureRegression.alerts).toHaveLength(1);
    expect(featureRegression.alerts[0].threshold.branch.name).toBe('feature');

    let alerts = await bench.json('GET', '/v0/projects/the-computer/alerts');
    expect(alerts).toHaveLength(2);

    // Dismiss and reactivate.
    const dismissed = await bench.json('PATCH', `/v0/projects/the-computer/alerts/${alert.uuid}`, {
      token: bench.muriel,
      body: { status: 'dismissed' },
    });
    expect(dismissed.status).toBe('dismissed');
    expect(await bench.json('GET', '/v0/projects/the-computer/alerts?status=active')).toHaveLength(1);
    const reactivated = await bench.json('PATCH', `/v0/projects/the-computer/alerts/${alert.uuid}`, {
      token: bench.muriel,
      body: { status: 'active' },
    });
    expect(reactivated.status).toBe('active');
    const anonymousPatch = await bench.call('PATCH', `/v0/projects/the-computer/alerts/${alert.uuid}`, {
      body: { status: 'dismissed' },
    });
    expect(anonymousPatch.status).toBe(401);

    // Archiving the testbed hides its alerts from the default list.
    await bench.json('PATCH', '/v0/projects/the-computer/testbeds/localhost', {
      token: bench.muriel,
      body: { archived: true },
    });
    alerts = await bench.json('GET', '/v0/projects/the-computer/alerts');
    expect(alerts).toHaveLength(0);
    expect(await bench.json('GET', '/v0/projects/the-computer/alerts?archived=true')).toHaveLength(2);
    expect(await bench.json('GET', '/v0/projects/the-computer/testbeds')).toHaveLength(0);
    await bench.json('PATCH', '/v0/projects/the-computer/testbeds/localhost', {
      token: bench.muriel,
      body: { archived: false },
    });

    // Dismiss all.
    const all = await bench.json('POST', '/v0/projects/the-computer/alerts/dismiss', {
      token: bench.muriel,
      status: 200,
    });
    expect(all).toEqual({ dismissed: 2 });

    // A benchmark named with the ignore suffix is measured and bounded but never alerts.
    const ignored = await report('main', 500, 150, {
      results: [bmf({ 'tests::fib_bencher_ignore': { latency: 1000 } })],
    });
    expect(ignored.results[0][0].benchmark.name).toBe('tests::fib');
    expect(ignored.results[0][0].measures[0].boundary.upper_limit).toBeLessThan(1000);
    expect(ignored.alerts).toEqual([]);
    expect(await bench.json('GET', '/v0/projects/the-computer/alerts')).toHaveLength(2);

    // A private project is 404 to a stranger and 200 to a member.
    await bench.json('PATCH', '/v0/projects/the-computer', { token: bench.muriel, body: { visibility: 'private' } });
    expect((await bench.call('GET', '/v0/projects/the-computer/alerts', { token: bench.courage })).status).toBe(404);
    expect((await bench.call('GET', `/v0/projects/the-computer/alerts/${alert.uuid}`)).status).toBe(404);
    expect((await bench.call('GET', '/v0/projects/the-computer/alerts', { token: bench.muriel })).status).toBe(200);
  });
});
