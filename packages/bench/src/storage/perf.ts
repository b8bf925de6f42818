import type { Database } from '@atrium/core';
import { sql } from 'kysely';
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

/** A metric in plot order; its report's columns are in `PerfReport`, once per report. */
export type PerfRow = Omit<MetricDetail, 'alert_created'>;

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
 * The perf query's SQL: every metric of the given heads × testbeds × benchmarks × measures, in plot
 * order. The reports in scope are materialised first and `cross join` keeps them the outer loop on
 * SQLite (PostgreSQL plans it as an inner join), so `report_benchmark` is probed per report in scope
 * instead of walking the whole history of up to 255 benchmarks. A row carries only the metric's own
 * columns: better-sqlite3 builds rows of 20 or more columns as dictionary-mode objects, several
 * times larger and slower to build, and report columns would repeat on every metric of the report.
 */
export function perfSql(query: PerfQuery) {
  return sql<PerfRow>`
    with reports as materialized (${reportsInScope(query)})
    select reports.uuid as report_uuid, rb.iteration, rb.benchmark_uuid, m.measure_uuid,
      m.uuid as metric_uuid, m.value, m.lower_value, m.upper_value,
      b.threshold_uuid, b.model_uuid, b.baseline, b.lower_limit, b.upper_limit,
      a.uuid as alert_uuid, a.boundary_limit, a.status, a.modified as alert_modified
    from reports
    cross join report_benchmark rb
    join metric m on m.report_benchmark_uuid = rb.uuid
    left join boundary b on b.metric_uuid = m.uuid
    left join alert a on a.boundary_uuid = b.uuid
    where rb.report_uuid = reports.uuid
      and rb.benchmark_uuid in (${sql.join(query.benchmarkUuids)})
      and m.measure_uuid in (${sql.join(query.measureUuids)})
    order by reports.number, reports.start_time, rb.iteration`;
}

/** A row of `perfSql` from its column values, in select order. */
const perfRow = (row: unknown[]): PerfRow => ({
  report_uuid: row[0] as string,
  iteration: row[1] as number,
  benchmark_uuid: row[2] as string,
  measure_uuid: row[3] as string,
  metric_uuid: row[4] as string,
  value: row[5] as number,
  lower_value: row[6] as number | null,
  upper_value: row[7] as number | null,
  threshold_uuid: row[8] as string | null,
  model_uuid: row[9] as string | null,
  baseline: row[10] as number | null,
  lower_limit: row[11] as number | null,
  upper_limit: row[12] as number | null,
  alert_uuid: row[13] as string | null,
  boundary_limit: row[14] as PerfRow['boundary_limit'],
  status: row[15] as PerfRow['status'],
  alert_modified: row[16] as number | null,
});

/**
 * The reports in scope and their metrics in plot order (two statements; see `perfSql`). Metrics are
 * read as arrays and made objects here, which costs a third less than better-sqlite3's row objects.
 */
export async function perfMetrics(database: Database<BenchDatabase>, query: PerfQuery): Promise<PerfRows> {
  const { db } = database;
  const [reports, metrics] = await Promise.all([
    reportsInScope(query).execute(db),
    database.selectArrays(perfSql(query).compile(db)),
  ]);
  return { reports: reports.rows, metrics: metrics.map(perfRow) };
}
