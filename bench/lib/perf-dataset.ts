// The perf benchmarks' dataset: one project, 392 reports × 255 benchmarks × 1 measure (~100,000 metrics),
// and the 255-permutation view of it (1 branch × 1 testbed × 255 benchmarks × 1 measure).
import type { openBenchDatabase, PerfQuery } from '@atrium/bench';
import { sql } from 'kysely';
import { bmfReport } from './bench-service.js';

export const BENCHMARKS = 255;
export const REPORTS = 392;

/** Posts `reports` reports of `BENCHMARKS` benchmarks, one second apart, to the project `bench`. */
export async function seedPerfProject(post: (path: string, body: unknown) => Promise<unknown>, reports: number) {
  for (let i = 0; i < reports; i++) await post('/v0/projects/bench/reports', bmfReport(i, BENCHMARKS, ['latency']));
}

/**
 * PostgreSQL as a live server has it: the seeded tables vacuumed and analysed, which autovacuum would
 * otherwise do in the middle of the timed runs (its pass showed as the raw SQL's p99).
 */
export async function vacuumSeeded(database: Awaited<ReturnType<typeof openBenchDatabase>>): Promise<void> {
  if (database.dialect !== 'postgres') return;
  await sql`vacuum analyze report, report_benchmark, metric, boundary, alert, version, head_version`.execute(
    database.db,
  );
}

interface Row {
  uuid: string;
  slug: string;
  head?: { uuid: string };
}

/** The dimensions the view plots: the reports' own testbed and measure, not a new project's defaults. */
export async function perfDimensions(base: string, token: string) {
  const get = async (path: string) => {
    const response = await fetch(`${base}/v0/projects/bench${path}`, { headers: { authorization: `Bearer ${token}` } });
    return response.json();
  };
  const list = (plural: string) => get(`/${plural}?per_page=255`) as Promise<Row[]>;
  const [project, branches, testbeds, benchmarks, measures] = await Promise.all([
    get('') as Promise<{ uuid: string }>,
    list('branches'),
    list('testbeds'),
    list('benchmarks'),
    list('measures'),
  ]);
  return {
    projectUuid: project.uuid,
    branches,
    testbeds: testbeds.filter((row) => row.slug === 'ci-runner'),
    benchmarks,
    measures: measures.filter((row) => row.slug === 'latency'),
  };
}

export type PerfDimensions = Awaited<ReturnType<typeof perfDimensions>>;

/** The view of the last `lastReports` of `reports`: its query string (API and console) and the `PerfQuery` the API runs for it. */
export function perfView(dimensions: PerfDimensions, reports: number, lastReports: number) {
  const { projectUuid, branches, testbeds, benchmarks, measures } = dimensions;
  const startTime = Date.UTC(2026, 0, 1) + (reports - lastReports) * 1000;
  const uuids = (rows: Row[]) => rows.map((row) => row.uuid).join(',');
  const search = [
    `branches=${uuids(branches)}`,
    `testbeds=${uuids(testbeds)}`,
    `benchmarks=${uuids(benchmarks)}`,
    `measures=${uuids(measures)}`,
    `start_time=${startTime}`,
  ].join('&');
  // As the API asks: the project's own reports in the window.
  const query: PerfQuery = {
    projectUuid,
    headUuids: branches.map((row) => row.head?.uuid as string),
    testbedUuids: testbeds.map((row) => row.uuid),
    benchmarkUuids: benchmarks.map((row) => row.uuid),
    measureUuids: measures.map((row) => row.uuid),
    startTime,
  };
  return { search, query };
}

/** Milliseconds of each of `runs` sequential calls of `work`. */
export async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * `runs` API requests alternating with `runs` runs of the same SQL (`perfMetrics` on a second connection),
 * after `warmUp` untimed runs of each, so machine noise falls on both.
 */
export async function apiBesideSql(
  request: () => Promise<unknown>,
  sqlRun: () => Promise<unknown>,
  runs: number,
  warmUp: number,
) {
  await timed(warmUp, request);
  await timed(warmUp, sqlRun);
  const api: number[] = [];
  const sql: number[] = [];
  for (let i = 0; i < runs; i++) {
    api.push(...(await timed(1, request)));
    sql.push(...(await timed(1, sqlRun)));
  }
  return { api, sql };
}
