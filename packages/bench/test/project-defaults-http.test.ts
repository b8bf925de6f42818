import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

const path = (rest: string) => `/v0/projects/the-computer/${rest}`;
const names = (rows: Json[]) => rows.map((row) => row.slug).sort();

describeEachDialect('bench project defaults and deprecated input names over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('gives a new project branch main, testbed localhost, latency and throughput, and their two t-test thresholds', async () => {
    expect(names(await bench.json('GET', path('branches')))).toEqual(['main']);
    expect(names(await bench.json('GET', path('testbeds')))).toEqual(['localhost']);
    const measures = await bench.json('GET', path('measures'));
    expect(measures.map((m: Json) => [m.slug, m.units]).sort()).toEqual([
      ['latency', 'nanoseconds (ns)'],
      ['throughput', 'operations / second (ops/s)'],
    ]);
    const thresholds = await bench.json('GET', path('thresholds'));
    const byMeasure = Object.fromEntries(thresholds.map((t: Json) => [t.measure.slug, t]));
    expect(Object.keys(byMeasure).sort()).toEqual(['latency', 'throughput']);
    for (const threshold of thresholds) {
      expect([threshold.branch.slug, threshold.testbed.slug]).toEqual(['main', 'localhost']);
      expect(threshold.model).toMatchObject({
        test: 't_test',
        min_sample_size: null,
        max_sample_size: 64,
        window: null,
      });
    }
    expect(byMeasure.latency.model).toMatchObject({ lower_boundary: null, upper_boundary: 0.95 });
    expect(byMeasure.throughput.model).toMatchObject({ lower_boundary: 0.95, upper_boundary: null });

    // A report on the defaults is judged by them at once; a run naming another testbed works as before.
    const report = await bench.json('POST', path('reports'), {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: 'localhost',
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ b: { latency: 5 } })],
      },
    });
    expect(report.results[0][0].measures[0].threshold.model).toMatchObject({ test: 't_test', upper_boundary: 0.95 });
    const run = await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      body: {
        project: 'the-computer',
        branch: 'main',
        testbed: 'Linux',
        start_time: at(2),
        end_time: at(3),
        results: [bmf({ b: { latency: 6 } })],
      },
    });
    expect(run.testbed.name).toBe('Linux');
    expect(run.results[0][0].measures[0].threshold).toBeNull();
    expect(report.no_threshold).toEqual([]);
    expect(run.no_threshold.map((measure: Json) => measure.slug)).toEqual(['latency']);
    expect(names(await bench.json('GET', path('testbeds')))).toEqual(['linux', 'localhost']);
  });

  it('gives a threshold created without any boundary the default 0.95: above, or below for throughput', async () => {
    await bench.json('POST', path('testbeds'), { token: bench.muriel, body: { name: 'ci' } });
    await bench.json('POST', path('measures'), { token: bench.muriel, body: { name: 'Memory', units: 'bytes' } });
    const memory = await bench.json('POST', path('thresholds'), {
      token: bench.muriel,
      body: { branch: 'main', testbed: 'ci', measure: 'memory', test: 't_test' },
    });
    expect(memory.model).toMatchObject({ test: 't_test', lower_boundary: null, upper_boundary: 0.95 });
    const throughput = await bench.json('POST', path('thresholds'), {
      token: bench.muriel,
      body: { branch: 'main', testbed: 'ci', measure: 'throughput', test: 'z_score', max_sample_size: 30 },
    });
    expect(throughput.model).toMatchObject({ test: 'z_score', lower_boundary: 0.95, upper_boundary: null });
    const given = await bench.json('PUT', path(`thresholds/${memory.uuid}`), {
      token: bench.muriel,
      body: { test: 'percentage', lower_boundary: 0.1 },
    });
    expect(given.model).toMatchObject({ lower_boundary: 0.1, upper_boundary: null });
  });

  it('copies the defaults to the branch and testbed of a project made on the fly by its first run', async () => {
    const run = await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      body: {
        project: 'on-the-fly',
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ b: { throughput: 100, instructions: 7 } })],
        context: { 'bencher.dev/v0/testbed/os': 'Linux', 'bencher.dev/v0/branch/ref/name': 'trunk' },
      },
    });
    const slug = run.project.slug as string;
    expect([run.branch.name, run.testbed.name]).toEqual(['trunk', 'Linux']);
    const judged = Object.fromEntries(run.results[0][0].measures.map((m: Json) => [m.measure.slug, m.threshold]));
    expect(judged.throughput.model).toMatchObject({ test: 't_test', lower_boundary: 0.95, max_sample_size: 64 });
    expect(judged.instructions).toBeNull();
    expect(run.no_threshold.map((measure: Json) => measure.slug)).toEqual(['instructions']);
    const thresholds = await bench.json('GET', `/v0/projects/${slug}/thresholds`);
    expect(thresholds.map((t: Json) => `${t.branch.slug} ${t.testbed.slug} ${t.measure.slug}`).sort()).toEqual([
      'main localhost latency',
      'main localhost throughput',
      'trunk linux latency',
      'trunk linux throughput',
    ]);

    // Only the first report: a later one on another testbed stays unguarded and says so.
    const later = await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      body: {
        project: slug,
        branch: 'trunk',
        testbed: 'macOS',
        start_time: at(2),
        end_time: at(3),
        results: [bmf({ b: { throughput: 100 } })],
      },
    });
    expect(later.no_threshold.map((measure: Json) => measure.slug)).toEqual(['throughput']);
    expect((await bench.json('GET', `/v0/projects/${slug}/thresholds`)).length).toBe(4);

    // A first report that resets its pair's thresholds (`--thresholds-reset`) is not given the defaults.
    const reset = await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      body: {
        project: 'reset-first',
        testbed: 'Linux',
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ b: { throughput: 100 } })],
        thresholds: { reset: true },
      },
    });
    expect(reset.no_threshold.map((measure: Json) => measure.slug)).toEqual(['throughput']);
    expect((await bench.json('GET', `/v0/projects/${reset.project.slug}/thresholds`)).length).toBe(2);
  });

  it('reads the deprecated lower_bound, upper_bound and statistic as their new names, and still refuses unknown fields', async () => {
    const report = await bench.json('POST', path('reports'), {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: 'localhost',
        start_time: at(0),
        end_time: at(1),
        results: [JSON.stringify({ old: { latency: { value: 10, lower_bound: 8, upper_bound: 12 } } })],
      },
    });
    const metric = report.results[0][0].measures[0].metric;
    expect(metric).toMatchObject({ value: 10, lower_value: 8, upper_value: 12 });
    expect(await bench.json('GET', path(`metrics/${metric.uuid}`))).toMatchObject({
      metric: { value: 10, lower_value: 8, upper_value: 12 },
    });
    const conflicting = await bench.call('POST', path('reports'), {
      token: bench.muriel,
      body: {
        start_time: at(2),
        end_time: at(3),
        results: [JSON.stringify({ old: { latency: { value: 10, lower_bound: 8, lower_value: 9 } } })],
      },
    });
    expect(conflicting.status).toBe(400);

    await bench.json('POST', path('testbeds'), { token: bench.muriel, body: { name: 'ci' } });
    const threshold = await bench.json('POST', path('thresholds'), {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: 'ci',
        measure: 'latency',
        statistic: { test: 'percentage', upper_boundary: 0.2 },
      },
    });
    expect(threshold.model).toMatchObject({ test: 'percentage', upper_boundary: 0.2 });
    const replaced = await bench.json('PUT', path(`thresholds/${threshold.uuid}`), {
      token: bench.muriel,
      body: { statistic: { test: 'static', lower_boundary: 1 } },
    });
    expect(replaced.model).toMatchObject({ test: 'static', lower_boundary: 1 });
    for (const body of [
      { branch: 'main', testbed: 'ci', measure: 'throughput', statistic: { test: 't_test', colour: 1 } },
      { branch: 'main', testbed: 'ci', measure: 'throughput', test: 'z_score', statistic: { test: 't_test' } },
      { branch: 'main', testbed: 'ci', measure: 'throughput', test: 't_test', lower_bound: 0.9 },
    ]) {
      expect((await bench.call('POST', path('thresholds'), { token: bench.muriel, body })).status).toBe(400);
    }
  });
});
