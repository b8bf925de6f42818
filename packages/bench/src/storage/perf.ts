import type { Database } from '@atrium/core';
import { type Kysely, sql } from 'kysely';
import { inPlotOrder } from '../domain/perf-order.js';
import type { MetricDetail } from './metric-details.js';
import type { BenchDatabase } from './schema.js';

export interface PerfQuery {
  /** With `startTime`: the reports in scope are found from the project's reports in the window. */
  projectUuid?: string | undefined;
  headUuids: readonly string[];
  testbedUuids: readonly string[];
  benchmarkUuids: readonly string[];
  measureUuids: readonly string[];
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/** A report in scope, with the head, times and version its metrics are plotted by. */
export interface PerfReport {
  head_uuid: string;
  uuid: string;
  testbed_uuid: string;
  start_time: number;
  end_time: number;
  number: number;
  hash: string | null;
}

/**
 * A metric in plot order, with the head it was read through; its report's columns are in `PerfReport`,
 * once per report.
 */
export type PerfRow = Omit<MetricDetail, 'alert_created'> & { head_uuid: string };

export interface PerfRows {
  reports: PerfReport[];
  metrics: PerfRow[];
}

/**
 * Times are stored in milliseconds but shown to the second (as Bencher does), so an end on a whole second,
 * as in the links `atrium bench run` prints from a report's `end_time`, covers that whole second.
 */
const endBound = (endTime: number) => (endTime % 1000 === 0 ? endTime + 999 : endTime);

/**
 * A window (a pinned plot's, or a perf page's start time) reads the project's reports in it by the
 * (project, start time) index and keeps those on the heads; without one, the heads' versions are read,
 * all of which are in scope. `cross join` keeps SQLite's loops in that order.
 */
function reportsInScope(query: PerfQuery) {
  const start = query.startTime === undefined ? sql`` : sql`and r.start_time >= ${query.startTime}`;
  const end = query.endTime === undefined ? sql`` : sql`and r.end_time <= ${endBound(query.endTime)}`;
  const source =
    query.projectUuid !== undefined && query.startTime !== undefined
      ? sql`from report r
    cross join head_version hv
    join version v on v.uuid = r.version_uuid
    where r.project_uuid = ${query.projectUuid} and hv.version_uuid = r.version_uuid and`
      : sql`from head_version hv
    join version v on v.uuid = hv.version_uuid
    join report r on r.version_uuid = v.uuid
    where`;
  return sql<PerfReport>`
    select hv.head_uuid, r.uuid, r.testbed_uuid, r.start_time, r.end_time, v.number, v.hash
    ${source} hv.head_uuid in (${sql.join(query.headUuids)})
      and r.testbed_uuid in (${sql.join(query.testbedUuids)})
      ${start} ${end}`;
}

/**
 * Every metric of the given heads × testbeds × benchmarks × measures, from the reports in scope. The
 * reports are materialised first and `cross join` keeps them the outer loop on SQLite (PostgreSQL plans
 * it as an inner join), so each report's metrics of a measure are one range of `metric_report_perf` instead
 * of walking the whole history of up to 255 benchmarks. A row carries only the metric's own columns: report columns would
 * repeat on every metric of the report. Without `boundaries` (no threshold in scope) the boundary and
 * alert tables are not probed (a quarter of the statement's time on SQLite) and their columns are not
 * selected (better-sqlite3 hands each column of each row to JavaScript, nulls too: a third of the time).
 */
function metricsInScope(query: PerfQuery, boundaries: boolean) {
  const limits = boundaries
    ? sql`, b.threshold_uuid, b.model_uuid, b.baseline, b.lower_limit, b.upper_limit,
      a.uuid as alert_uuid, a.boundary_limit, a.status, a.modified as alert_modified`
    : sql``;
  const joins = boundaries
    ? sql`left join boundary b on b.metric_uuid = m.uuid
    left join alert a on a.boundary_uuid = b.uuid`
    : sql``;
  return sql`
    select reports.uuid as report_uuid, m.iteration, m.benchmark_uuid, m.measure_uuid,
      m.uuid as metric_uuid, m.value, m.lower_value, m.upper_value, reports.head_uuid ${limits}
    from reports
    cross join metric m
    ${joins}
    where m.report_uuid = reports.uuid
      and m.benchmark_uuid in (${sql.join(query.benchmarkUuids)})
      and m.measure_uuid in (${sql.join(query.measureUuids)})`;
}

/**
 * Whether a threshold covers a branch, testbed and measure in scope. A metric's boundary is made by the
 * threshold of its report's branch and testbed and its measure, and a threshold with boundaries cannot be
 * deleted, so without one no metric in scope has a boundary.
 */
async function thresholdInScope(db: Kysely<BenchDatabase>, query: PerfQuery): Promise<boolean> {
  const found = await db
    .selectFrom('threshold')
    .innerJoin('head', 'head.branch_uuid', 'threshold.branch_uuid')
    .select('threshold.uuid')
    .where('head.uuid', 'in', query.headUuids)
    .where('threshold.testbed_uuid', 'in', query.testbedUuids)
    .where('threshold.measure_uuid', 'in', query.measureUuids)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * The metric rows in plot order (`inPlotOrder`'s) in SQL: the reference the tests hold `perfMetrics`
 * equal to. `perfMetrics` reads the same rows unsorted, with the reports in scope, in one statement and
 * orders them in JavaScript: the database neither sorts the wide rows nor reads the reports twice.
 */
export function perfSql(query: PerfQuery) {
  return sql<PerfRow>`
    with reports as materialized (${reportsInScope(query)})
    ${metricsInScope(query, true)}
    order by reports.number, reports.start_time, reports.uuid, m.iteration, m.benchmark_uuid, m.measure_uuid,
      reports.head_uuid`;
}

/**
 * The reports in scope and their metrics in one statement, reading the reports once: the metric rows,
 * then a row per report in scope in the same 9 or 18 columns (of the same types), told apart by a null
 * `metric_uuid`: report uuid, version number, head, testbed, null, start time, end time, null, hash.
 * Unordered; see `perfMetrics`.
 */
function reportsAndMetricsSql(query: PerfQuery, boundaries: boolean) {
  const padding = boundaries ? sql`, null, null, null, null, null, null, null, null, null` : sql``;
  return sql`
    with reports as materialized (${reportsInScope(query)})
    ${metricsInScope(query, boundaries)}
    union all
    select uuid, number, head_uuid, testbed_uuid, null, start_time, end_time, null, hash ${padding}
    from reports`;
}

/** A metric row of `reportsAndMetricsSql` from its column values, in select order (no limits: 9 columns). */
const perfRow = (row: unknown[]): PerfRow => ({
  report_uuid: row[0] as string,
  iteration: row[1] as number,
  benchmark_uuid: row[2] as string,
  measure_uuid: row[3] as string,
  metric_uuid: row[4] as string,
  value: row[5] as number,
  lower_value: row[6] as number | null,
  upper_value: row[7] as number | null,
  head_uuid: row[8] as string,
  threshold_uuid: (row[9] ?? null) as string | null,
  model_uuid: (row[10] ?? null) as string | null,
  baseline: (row[11] ?? null) as number | null,
  lower_limit: (row[12] ?? null) as number | null,
  upper_limit: (row[13] ?? null) as number | null,
  alert_uuid: (row[14] ?? null) as string | null,
  boundary_limit: (row[15] ?? null) as PerfRow['boundary_limit'],
  status: (row[16] ?? null) as PerfRow['status'],
  alert_modified: (row[17] ?? null) as number | null,
});

/** A report row of `reportsAndMetricsSql`. */
const perfReport = (row: unknown[]): PerfReport => ({
  uuid: row[0] as string,
  number: row[1] as number,
  head_uuid: row[2] as string,
  testbed_uuid: row[3] as string,
  start_time: row[5] as number,
  end_time: row[6] as number,
  hash: row[8] as string | null,
});

/**
 * The reports in scope and their metrics in plot order, from one statement after a threshold lookup. Rows are read as arrays and
 * made objects here, which costs a third less than better-sqlite3's row objects.
 */
export async function perfMetrics(database: Database<BenchDatabase>, query: PerfQuery): Promise<PerfRows> {
  const boundaries = await thresholdInScope(database.db, query);
  const rows = await database.selectArrays(reportsAndMetricsSql(query, boundaries).compile(database.db));
  const reports: PerfReport[] = [];
  const metrics: PerfRow[] = [];
  for (const row of rows) {
    if (row[4] === null) reports.push(perfReport(row));
    else metrics.push(perfRow(row));
  }
  return { reports, metrics: inPlotOrder(reports, metrics) };
}
