import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inPlotOrder, type PlacedMetric, type RankedReport } from '../src/domain/perf-order.js';
import { openBenchDatabase } from '../src/index.js';
import { perfMetrics, perfSql } from '../src/storage/perf.js';
import { at, type Bench, type Json, seedProject, startBench } from './harness.js';

const report = (uuid: string, number: number, start_time: number): RankedReport => ({ uuid, number, start_time });
const metric = (report_uuid: string, iteration: number, benchmark_uuid = 'b', measure_uuid = 'm'): PlacedMetric => ({
  report_uuid,
  head_uuid: 'h',
  iteration,
  benchmark_uuid,
  measure_uuid,
});
const key = (m: PlacedMetric) => `${m.report_uuid}/${m.iteration}/${m.benchmark_uuid}/${m.measure_uuid}`;

describe('plot order', () => {
  it.each<[string, RankedReport[], PlacedMetric[], string[]]>([
    [
      'by version number before start time',
      [report('late-v0', 0, 50), report('early-v1', 1, 10)],
      [metric('early-v1', 0), metric('late-v0', 0)],
      ['late-v0/0/b/m', 'early-v1/0/b/m'],
    ],
    [
      'by start time within a version',
      [report('second', 3, 20), report('first', 3, 10)],
      [metric('second', 0), metric('first', 0)],
      ['first/0/b/m', 'second/0/b/m'],
    ],
    [
      'by report uuid when version and start time are equal',
      [report('r2', 3, 10), report('r1', 3, 10)],
      [metric('r2', 0), metric('r1', 0)],
      ['r1/0/b/m', 'r2/0/b/m'],
    ],
    [
      'by iteration within a report, then benchmark and measure',
      [report('r', 0, 0)],
      [metric('r', 1, 'a'), metric('r', 0, 'b', 'y'), metric('r', 0, 'b', 'x'), metric('r', 0, 'a')],
      ['r/0/a/m', 'r/0/b/x', 'r/0/b/y', 'r/1/a/m'],
    ],
    [
      'once per metric when a report is in scope through two heads, none of unlisted reports',
      [report('r', 0, 0), report('r', 0, 0)],
      [metric('r', 0), metric('other', 0)],
      ['r/0/b/m'],
    ],
  ])('%s', (_name, reports, metrics, expected) => {
    expect(inPlotOrder(reports, metrics).map(key)).toEqual(expected);
  });
});

describeEachDialect('perf plot order', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('plots by version number, then start time, then iteration, whatever order the reports came in', async () => {
    const path = (rest: string) => `/v0/projects/the-computer/${rest}`;
    // Posted in this order: version 0 (hash a) starts last; version 1 (hash b) first; version 0 again in between.
    const posted: [string, number][] = [
      ['a', 50],
      ['b', 10],
      ['a', 30],
    ];
    for (const [hash, second] of posted) {
      await bench.json('POST', path('reports'), {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'lab',
          hash: hash.repeat(40),
          start_time: at(second),
          end_time: at(second + 1),
          // Two iterations; the second iteration's benchmarks come first in its results.
          results: [
            JSON.stringify({ sort: { latency: { value: second } }, fib: { latency: { value: second + 0.5 } } }),
            JSON.stringify({ fib: { latency: { value: second + 1.5 } }, sort: { latency: { value: second + 1 } } }),
          ],
        },
      });
    }
    const uuids = async (plural: string) =>
      ((await bench.json('GET', path(`${plural}?per_page=255`), { token: bench.muriel })) as Json[])
        .map((row) => row.uuid)
        .join(',');
    const query = `branches=${await uuids('branches')}&testbeds=${await uuids('testbeds')}&measures=${await uuids('measures')}`;
    const perf = await bench.json('GET', path(`perf?${query}&benchmarks=${await uuids('benchmarks')}`), {
      token: bench.muriel,
    });
    const sort = perf.results.find(
      (result: Json) => result.benchmark.name === 'sort' && result.measure.slug === 'latency',
    );
    expect(
      sort.metrics.map((m: Json) => [m.version.number, Date.parse(m.start_time), m.iteration, m.metric.value]),
    ).toEqual([
      [0, Date.parse(at(30)), 0, 30],
      [0, Date.parse(at(30)), 1, 31],
      [0, Date.parse(at(50)), 0, 50],
      [0, Date.parse(at(50)), 1, 51],
      [1, Date.parse(at(10)), 0, 10],
      [1, Date.parse(at(10)), 1, 11],
    ]);

    const database = await openBenchDatabase(url());
    try {
      const { db } = database;
      const list = async (table: 'testbed' | 'benchmark' | 'measure') =>
        (await db.selectFrom(table).select('uuid').execute()).map((row) => row.uuid);
      const heads = (await db.selectFrom('branch').select('head_uuid').execute()).map((row) => row.head_uuid as string);
      const project = await db
        .selectFrom('project')
        .select('uuid')
        .where('slug', '=', 'the-computer')
        .executeTakeFirstOrThrow();
      for (const window of [{}, { projectUuid: project.uuid, startTime: Date.parse(at(0)) }]) {
        const scope = {
          headUuids: heads,
          testbedUuids: await list('testbed'),
          benchmarkUuids: await list('benchmark'),
          measureUuids: await list('measure'),
          ...window,
        };
        const { metrics } = await perfMetrics(database, scope);
        expect(metrics.length).toBe(12);
        expect(metrics).toEqual((await perfSql(scope).execute(db)).rows);
      }
    } finally {
      await database.close();
    }
  });
});
