// The perf query for 255 permutations (1 branch x 1 testbed x 255 benchmarks x 1 measure) over a project
// holding ~100,000 metrics: API latency beside the same SQL run directly, SQLite and PostgreSQL.
import { availableParallelism } from 'node:os';
import { openBenchDatabase, perfMetrics } from '@atrium/bench';
import { type Dialect, startBenchService } from './lib/bench-service.js';
import { median, percentile } from './lib/load.js';
import {
  apiBesideSql,
  BENCHMARKS,
  perfDimensions,
  perfView,
  REPORTS,
  seedPerfProject,
  timed,
  vacuumSeeded,
} from './lib/perf-dataset.js';
import type { BenchReport } from './lib/report.js';

const WARM_UP = 5;

async function measure(dialect: Dialect, reports: number, runs: number) {
  const service = await startBenchService(dialect);
  try {
    await seedPerfProject(service.post, reports);
    const settle = await openBenchDatabase(service.url);
    await vacuumSeeded(settle);
    await settle.close();
    const dimensions = await perfDimensions(service.base, service.token);
    const rows = [];
    for (const [label, lastReports] of [
      ['last 10 reports (2,550 metrics)', 10],
      [`all ${reports} reports (${reports * BENCHMARKS} metrics)`, reports],
    ] as const) {
      const { search, query } = perfView(dimensions, reports, lastReports);
      const url = `${service.base}/v0/projects/bench/perf?${search}`;
      const raw = await openBenchDatabase(service.url);
      let body = '';
      const request = async () => {
        const response = await fetch(url, { headers: { authorization: `Bearer ${service.token}` } });
        body = await response.text();
      };
      const apiRuns = lastReports === reports ? Math.max(3, Math.floor(runs / 20)) : runs;
      const { api, sql } = await apiBesideSql(request, () => perfMetrics(raw, query), apiRuns, WARM_UP);
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
        'SQL p50 ms': median(sql),
        'API/SQL': (median(api) / median(sql)).toFixed(2),
        'client JSON.parse ms': median(parse),
      });
    }
    return rows;
  } finally {
    await service.close();
  }
}

export default async function benchPerf(args: string[]): Promise<BenchReport> {
  const reports = Number(args[0] ?? REPORTS);
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
      'SQL = perfMetrics, the statements the API runs (a threshold lookup, then the reports in scope and their metrics in one), through Kysely on a second connection; API adds auth, dimension lookups, JSON and HTTP',
      `API = request sent to body received as text; the client's JSON.parse of the body is timed apart; ${WARM_UP} untimed runs of each first, then API and SQL runs alternate so machine noise falls on both`,
    ],
  };
}
