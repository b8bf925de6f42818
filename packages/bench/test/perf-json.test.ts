import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type PerfQuerystring, parsePerfRequest } from '../src/domain/perf-query.js';
import { openBenchDatabase } from '../src/index.js';
import { type PerfReport, type PerfRow, perfMetrics, perfSql } from '../src/storage/perf.js';
import { findProject } from '../src/storage/projects.js';
import { queryPerf } from '../src/views/perf-view.js';
import { type PerfView, perfJson, perfJsonBytes } from '../src/wire/perf-json.js';
import { at, type Bench, type Json, seedProject, startBench } from './harness.js';

const TESTBED = 'Lab “α” \\ "β"';

/** One report of benchmarks `fib "10"` (latency, throughput) and `sort` (latency), one entry per iteration. */
const results = (iterations: { fib: number; sort: number; bounds?: boolean }[]) =>
  iterations.map(({ fib, sort, bounds }) =>
    JSON.stringify({
      'fib "10"': {
        latency: bounds ? { value: fib, lower_value: fib - 0.5, upper_value: fib + 1.25 } : { value: fib },
        throughput: { value: 1e9 / fib },
      },
      sort: { latency: { value: sort } },
    }),
  );

describeEachDialect('perf JSON as bytes', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  const path = (rest: string) => `/v0/projects/the-computer/${rest}`;

  /** Reports with a static latency threshold (boundaries), one regression (an alert), bounds, two iterations. */
  async function seedReports() {
    const values = [100.25, 101.5, 99.75, 100, 150.125];
    for (const [i, fib] of values.entries()) {
      await bench.json('POST', path('reports'), {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: TESTBED,
          hash: `${i}`.repeat(40),
          start_time: at(i * 10),
          end_time: at(i * 10 + 3),
          results: results(
            i === 3
              ? [
                  { fib, sort: 7 },
                  { fib: fib + 0.5, sort: 8 },
                ]
              : [{ fib, sort: 5 + i / 3, bounds: i === 1 }],
          ),
          ...(i === 0 ? { thresholds: { models: { latency: { test: 'static', upper_boundary: 120 } } } } : {}),
        },
      });
    }
  }

  async function perfQuery(): Promise<PerfQuerystring> {
    const uuids = async (plural: string) =>
      ((await bench.json('GET', path(plural))) as { uuid: string }[]).map((row) => row.uuid).join(',');
    return {
      branches: await uuids('branches'),
      heads: undefined,
      testbeds: await uuids('testbeds'),
      benchmarks: await uuids('benchmarks'),
      measures: await uuids('measures'),
    };
  }

  async function view(query: PerfQuerystring): Promise<PerfView> {
    const database = await openBenchDatabase(url());
    try {
      const project = await findProject(database.db, { column: 'slug', value: 'the-computer' });
      if (!project) throw new Error('no project');
      const request = parsePerfRequest(query);
      if (typeof request === 'string') throw new Error(request);
      return await queryPerf(database, project, request);
    } finally {
      await database.close();
    }
  }

  it('answers, over HTTP, exactly JSON.stringify of the perf objects, with thresholds, boundaries and alerts', async () => {
    await seedReports();
    const query = await perfQuery();
    for (const window of [{}, { start_time: Date.parse(at(10)), end_time: Date.parse(at(43)) }]) {
      const search = new URLSearchParams(
        Object.entries({ ...query, ...window }).flatMap(([key, value]) =>
          value === undefined ? [] : [[key, String(value)] as [string, string]],
        ),
      );
      const response = await bench.call('GET', path(`perf?${search}`));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await response.text();
      expect(text).toBe(JSON.stringify(perfJson(await view({ ...query, ...window }))));
      const perf = JSON.parse(text);
      expect(perf.results.map((result: Json) => [result.testbed.name, result.benchmark.name])).toContainEqual([
        TESTBED,
        'fib "10"',
      ]);
      const metrics: Json[] = perf.results.flatMap((result: Json) => result.metrics);
      expect(metrics.length).toBeGreaterThan(0);
      expect(metrics.some((metric) => metric.alert?.limit === 'upper' && metric.alert.status === 'active')).toBe(true);
      expect(metrics.some((metric) => metric.boundary?.upper_limit === 120)).toBe(true);
      expect(metrics.some((metric) => metric.threshold?.model?.test === 'static')).toBe(true);
      expect(metrics.some((metric) => metric.threshold === null && metric.boundary === null)).toBe(true);
      expect(metrics.some((metric) => metric.metric.lower_value === 101)).toBe(true);
      expect(metrics.some((metric) => metric.iteration === 1)).toBe(true);
    }
  });

  it('keeps a report ending within the whole second that end_time names (times are shown to the second)', async () => {
    await bench.json('POST', path('reports'), {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: TESTBED,
        start_time: at(5),
        end_time: at(7.75),
        results: results([{ fib: 1, sort: 2 }]),
      },
    });
    const query = await perfQuery();
    const plotted = async (end: number) =>
      (await view({ ...query, start_time: Date.parse(at(0)), end_time: end })).results.length;
    expect(await plotted(Date.parse(at(7)))).toBeGreaterThan(0);
    expect(await plotted(Date.parse(at(7.5)))).toBe(0);
    expect(await plotted(Date.parse(at(6)))).toBe(0);
  });

  it('reads the metrics as arrays into the same rows Kysely reads as objects', async () => {
    await seedReports();
    const query = await perfQuery();
    const database = await openBenchDatabase(url());
    try {
      const list = (text: string | undefined) => (text ?? '').split(',');
      const branches = await database.db.selectFrom('branch').select('head_uuid').execute();
      const perf = {
        headUuids: branches.map((branch) => branch.head_uuid as string),
        testbedUuids: list(query.testbeds),
        benchmarkUuids: list(query.benchmarks),
        measureUuids: list(query.measures),
      };
      const { metrics } = await perfMetrics(database, perf);
      const objects = (await perfSql(perf).execute(database.db)).rows;
      expect(metrics.length).toBeGreaterThan(5);
      expect(metrics.some((row) => row.alert_uuid !== null && row.boundary_limit === 'upper')).toBe(true);
      expect(metrics).toEqual(objects);
    } finally {
      await database.close();
    }
  });

  it.each<[string, Partial<PerfRow>, Partial<PerfReport>?]>([
    ['huge and tiny values', { value: 1e21, lower_value: 5e-7, upper_value: -0 }],
    ['a fraction', { value: 0.1 + 0.2, lower_value: -12.5, upper_value: null }],
    ['no hash, a later iteration', { iteration: 7 }, { hash: null }],
    ['a version past 2^31 and times before 1970', {}, { number: 2 ** 31 + 5, start_time: -1500, end_time: -999 }],
    ['a threshold no longer there', { threshold_uuid: crypto.randomUUID(), model_uuid: null }],
    ['a model no longer there', { model_uuid: crypto.randomUUID() }],
    ['limits without a baseline', { baseline: null, lower_limit: -1.5, upper_limit: null }],
    ['an alert on the lower limit', { alert_uuid: crypto.randomUUID(), boundary_limit: 'lower', status: 'dismissed' }],
  ])('renders %s as JSON.stringify does', async (_name, patch, reportPatch = {}) => {
    await seedReports();
    const base = await view(await perfQuery());
    const [first] = base.results;
    if (!first) throw new Error('no results');
    const withPatch: PerfView = {
      ...base,
      reports: new Map([...base.reports].map(([uuid, report]) => [uuid, { ...report, ...reportPatch }])),
      results: base.results.map((result) => ({
        ...result,
        rows: result.rows.map((row) => ({
          ...row,
          alert_modified: row.alert_modified ?? Date.parse(at(99)),
          ...patch,
        })),
      })),
    };
    expect(perfJsonBytes(withPatch).toString('utf8')).toBe(JSON.stringify(perfJson(withPatch)));
  });
});
