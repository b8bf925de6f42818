import { type RawBuilder, sql } from 'kysely';
import type { Db } from './types.js';

/** A change point with the last metric of the old regime (`from`) and the first of the new (`to`), and their versions. */
export interface ChangePointView {
  uuid: string;
  boundary_uuid: string;
  report_uuid: string;
  head_uuid: string;
  testbed_uuid: string;
  benchmark_uuid: string;
  measure_uuid: string;
  before: number;
  after: number;
  shift: number | null;
  direction: 'increase' | 'decrease';
  score: number;
  from_metric: string;
  from_report: string;
  from_version: number;
  from_hash: string | null;
  to_metric: string;
  to_report: string;
  to_version: number;
  to_hash: string | null;
  /** The metric judged when the change was found (its report is `report_uuid`). */
  judged_metric: string;
}

async function changePointsWhere(db: Db, where: RawBuilder<unknown>): Promise<ChangePointView[]> {
  const { rows } = await sql<ChangePointView>`
    select cp.uuid, cp.boundary_uuid, cp.report_uuid, cp.head_uuid, cp.testbed_uuid, cp.benchmark_uuid,
      cp.measure_uuid, cp.before, cp.after, cp.shift, cp.direction, cp.score,
      lm.uuid as from_metric, lr.uuid as from_report, lv.number as from_version, lv.hash as from_hash,
      fm.uuid as to_metric, fr.uuid as to_report, fv.number as to_version, fv.hash as to_hash,
      jb.metric_uuid as judged_metric
    from change_point cp
    join boundary jb on jb.uuid = cp.boundary_uuid
    join metric lm on lm.uuid = cp.last_metric_uuid
    join report lr on lr.uuid = lm.report_uuid
    join version lv on lv.uuid = lr.version_uuid
    join metric fm on fm.uuid = cp.first_metric_uuid
    join report fr on fr.uuid = fm.report_uuid
    join version fv on fv.uuid = fr.version_uuid
    where ${where}
    order by fv.number, fr.start_time, fm.iteration`.execute(db);
  return rows.map((row) => ({
    ...row,
    before: Number(row.before),
    after: Number(row.after),
    shift: row.shift === null ? null : Number(row.shift),
    score: Number(row.score),
    from_version: Number(row.from_version),
    to_version: Number(row.to_version),
  }));
}

/** The change points found when these metrics were judged (their alerts' change points), by metric. */
export async function changePointsJudgedAt(
  db: Db,
  metricUuids: readonly string[],
): Promise<Map<string, ChangePointView>> {
  if (metricUuids.length === 0) return new Map();
  const found = await changePointsWhere(db, sql`jb.metric_uuid in (${sql.join(metricUuids)})`);
  return new Map(found.map((row) => [row.judged_metric, row]));
}

/**
 * The change points of the plotted series on one head whose new regime begins in a version visible through the head
 * (a branch shows those its start point found before it was cloned) and, when given, a report started in the range.
 */
export function changePointsOfHead(
  db: Db,
  query: {
    headUuid: string;
    testbedUuids: readonly string[];
    benchmarkUuids: readonly string[];
    measureUuids: readonly string[];
    startTime: number | undefined;
    endTime: number | undefined;
  },
): Promise<ChangePointView[]> {
  const from = query.startTime === undefined ? sql`` : sql`and fr.start_time >= ${query.startTime}`;
  const to = query.endTime === undefined ? sql`` : sql`and fr.start_time <= ${query.endTime}`;
  return changePointsWhere(
    db,
    sql`cp.testbed_uuid in (${sql.join(query.testbedUuids)}) and cp.benchmark_uuid in (${sql.join(query.benchmarkUuids)})
      and cp.measure_uuid in (${sql.join(query.measureUuids)})
      and fr.version_uuid in (select hv.version_uuid from head_version hv where hv.head_uuid = ${query.headUuid})
      ${from} ${to}`,
  );
}

/** Deletes the change points a report found, or whose last or first metric is one of the report's. */
export async function deleteChangePointsOf(db: Db, reportUuid: string): Promise<void> {
  await sql`delete from change_point where report_uuid = ${reportUuid}
    or first_metric_uuid in (select uuid from metric where report_uuid = ${reportUuid})
    or last_metric_uuid in (select uuid from metric where report_uuid = ${reportUuid})`.execute(db);
}
