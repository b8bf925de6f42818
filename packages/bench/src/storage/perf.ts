import { sql } from 'kysely';
import type { MetricDetail } from './metric-details.js';
import type { Db } from './types.js';

export interface PerfQuery {
  headUuids: readonly string[];
  testbedUuids: readonly string[];
  benchmarkUuids: readonly string[];
  measureUuids: readonly string[];
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/** A metric in plot order, with the head, testbed, report times and version it is plotted by. */
export interface PerfRow extends Omit<MetricDetail, 'alert_created'> {
  head_uuid: string;
  testbed_uuid: string;
  start_time: number;
  end_time: number;
  number: number;
  hash: string | null;
}

/**
 * The perf query's SQL: every metric of the given heads × testbeds × benchmarks × measures, in plot
 * order. The reports in scope are materialised first and `cross join` keeps them the outer loop on
 * SQLite (PostgreSQL plans it as an inner join), so `report_benchmark` is probed per report in scope
 * instead of walking the whole history of up to 255 benchmarks.
 */
export function perfSql(query: PerfQuery) {
  const start = query.startTime === undefined ? sql`` : sql`and r.start_time >= ${query.startTime}`;
  const end = query.endTime === undefined ? sql`` : sql`and r.end_time <= ${query.endTime}`;
  return sql<PerfRow>`
    with reports as materialized (
      select hv.head_uuid, r.uuid, r.testbed_uuid, r.start_time, r.end_time, v.number, v.hash
      from head_version hv
      join version v on v.uuid = hv.version_uuid
      join report r on r.version_uuid = v.uuid
      where hv.head_uuid in (${sql.join(query.headUuids)})
        and r.testbed_uuid in (${sql.join(query.testbedUuids)})
        ${start} ${end}
    )
    select reports.head_uuid, reports.testbed_uuid, rb.benchmark_uuid, m.measure_uuid,
      reports.uuid as report_uuid, rb.iteration, reports.start_time, reports.end_time, reports.number, reports.hash,
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

export async function perfMetrics(db: Db, query: PerfQuery): Promise<PerfRow[]> {
  return (await perfSql(query).execute(db)).rows;
}
