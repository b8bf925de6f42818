// The perf query for 255 permutations (1 branch x 1 testbed x 255 benchmarks x 1 measure) over a project
// holding ~100,000 metrics: API latency beside the same SQL run directly, SQLite and PostgreSQL.
import { availableParallelism } from 'node:os';
import { openBenchDatabase, perfMetrics } from '@atrium/bench';
import { bmfReport, type Dialect, startBenchService } from './lib/bench-service.js';
import { median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const BENCHMARKS = 255;
const WARM_UP = 5;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  return times;
}

async function measure(dialect: Dialect, reports: number, runs: number) {
  const service = await startBenchService(dialect);
  try {
    for (let i = 0; i < reports; i++)
      await service.post('/v0/projects/bench/reports', bmfReport(i, BENCHMARKS, ['latency']));
    const list = async (plural: string) => {
      const response = await fetch(`${service.base}/v0/projects/bench/${plural}?per_page=255`, {
        headers: { authorization: `Bearer ${service.token}` },
      });
      return (await response.json()) as { uuid: string; slug: string; head?: { uuid: string } }[];
    };
    // The reports' own testbed and measure, not the ones every new project gets by default (localhost, throughput).
    const [branches, allTestbeds, benchmarks, allMeasures] = await Promise.all([
      list('branches'),
      list('testbeds'),
      list('benchmarks'),
      list('measures'),
    ]);
    const testbeds = allTestbeds.filter((row) => row.slug === 'ci-runner');
    const measures = allMeasures.filter((row) => row.slug === 'latency');
    const rows = [];
    for (const [label, lastReports] of [
      ['last 10 reports (2,550 metrics)', 10],
      [`all ${reports} reports (${reports * BENCHMARKS} metrics)`, reports],
    ] as const) {
      const startTime = Date.UTC(2026, 0, 1) + (reports - lastReports) * 1000;
      const query = [
        `branches=${branches.map((row) => row.uuid).join(',')}`,
        `testbeds=${testbeds.map((row) => row.uuid).join(',')}`,
        `benchmarks=${benchmarks.map((row) => row.uuid).join(',')}`,
        `measures=${measures.map((row) => row.uuid).join(',')}`,
        `start_time=${startTime}`,
      ].join('&');
      const url = `${service.base}/v0/projects/bench/perf?${query}`;
      const sqlQuery = {
        headUuids: branches.map((row) => row.head?.uuid as string),
        testbedUuids: testbeds.map((row) => row.uuid),
        benchmarkUuids: benchmarks.map((row) => row.uuid),
        measureUuids: measures.map((row) => row.uuid),
        startTime,
      };
      const raw = await openBenchDatabase(service.url);
      let body = '';
      const request = async () => {
        const response = await fetch(url, { headers: { authorization: `Bearer ${service.token}` } });
        body = await response.text();
      };
      const sqlRun = () => perfMetrics(raw, sqlQuery);
      await timed(WARM_UP, request);
      await timed(WARM_UP, sqlRun);
      const apiRuns = lastReports === reports ? Math.max(3, Math.floor(runs / 20)) : runs;
      const api: number[] = [];
      const sqlTimes: number[] = [];
      for (let i = 0; i < apiRuns; i++) {
        api.push(...(await timed(1, request)));
        sqlTimes.push(...(await timed(1, sqlRun)));
      }
      await raw.close();
      let perf = { results: [] } as { results: { metrics: unknown[] }[] };
      const parse = await timed(WARM_UP, async () => {
        perf = JSON.parse(body);
      });
      const count = perf.results.reduce((n, result) => n + result.metrics.length, 0);
      rows.push({
        dialect,
        query: label,
        metrics: count,
        'API p50 ms': median(api),
        'API p99 ms': percentile(api, 0.99),
        'SQL p50 ms': median(sqlTimes),
        'API/SQL': (median(api) / median(sqlTimes)).toFixed(2),
        'client JSON.parse ms': median(parse),
      });
    }
    return rows;
  } finally {
    await service.close();
  }
}

export default async function benchPerf(args: string[]): Promise<BenchReport> {
  const reports = Number(args[0] ?? 392);
  const runs = Number(args[1] ?? 200);
  const rows = [];
  for (const dialect of ['sqlite', 'postgres'] as const) rows.push(...(await measure(dialect, reports, runs)));
  return {
    title: `Perf query, ${BENCHMARKS} permutations, project with ${reports * BENCHMARKS} metrics, sequential requests, ${availableParallelism()} cores`,
    columns: [
      'dialect',
      'query',
      'metrics',
      'API p50 ms',
      'API p99 ms',
      'SQL p50 ms',
      'API/SQL',
      'client JSON.parse ms',
    ],
    rows,
    notes: [
      'goals: API p99 < 50 ms and API <= 1.5x raw SQL for the 255-permutation query (the last-10-reports row)',
      'SQL = perfMetrics, the same two statements the API runs (reports in scope, then their metrics), through Kysely on a second connection; API adds auth, dimension lookups, JSON and HTTP',
      `API = request sent to body received as text; the client's JSON.parse of the body is timed apart; ${WARM_UP} untimed runs of each first, then API and SQL runs alternate so machine noise falls on both`,
    ],
  };
}
