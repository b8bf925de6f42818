import { sql } from 'kysely';
import type { Page } from '../wire/pagination.js';
import { archivedScope } from './archived-scope.js';
import { type Listed, paged } from './list-query.js';
import type { AlertRow, Db } from './types.js';

export type AlertStatus = AlertRow['status'];

export interface AlertFilter {
  projectUuid: string;
  archived: boolean;
  status?: AlertStatus | undefined;
}

/**
 * The project's alerts with what their order reads (report, benchmark); the archived dimensions are
 * tested by `archivedScope` rather than joined, which leaves PostgreSQL 6 tables to plan instead of 10.
 */
export function alertsOfProject(db: Db, filter: AlertFilter) {
  const { projectUuid } = filter;
  let query = db
    .selectFrom('alert')
    .innerJoin('boundary', 'boundary.uuid', 'alert.boundary_uuid')
    .innerJoin('metric', 'metric.uuid', 'boundary.metric_uuid')
    .innerJoin('report_benchmark', 'report_benchmark.uuid', 'metric.report_benchmark_uuid')
    .innerJoin('benchmark', 'benchmark.uuid', 'report_benchmark.benchmark_uuid')
    .innerJoin('report', 'report.uuid', 'report_benchmark.report_uuid')
    .where('alert.project_uuid', '=', projectUuid);
  const dimensions = { head: 'report.head_uuid', testbed: 'report.testbed_uuid', measure: 'metric.measure_uuid' };
  query = query.where(archivedScope(db, projectUuid, dimensions, filter.archived));
  if (filter.status) query = query.where('alert.status', '=', filter.status);
  return query;
}

/** Alert uuids in Bencher's order: status (active, dismissed, silenced), then time, benchmark name, iteration. */
export async function listAlerts(
  db: Db,
  filter: AlertFilter,
  sort: 'created' | 'modified',
  page: Page,
): Promise<Listed<{ uuid: string; report_created: number }>> {
  const query = alertsOfProject(db, filter);
  const statusRank = sql<number>`case alert.status when 'active' then 0 when 'dismissed' then 1 else 10 end`;
  return paged(
    query,
    (q) =>
      q
        .select(['alert.uuid', 'report.created as report_created'])
        .orderBy(statusRank)
        .orderBy(`alert.${sort}`, page.direction ?? 'desc')
        .orderBy('benchmark.name')
        .orderBy('report_benchmark.iteration')
        .orderBy('alert.uuid'),
    page,
  );
}

/** One alert of the project, with its report's creation time. */
export const findAlert = (db: Db, projectUuid: string, uuid: string) =>
  db
    .selectFrom('alert')
    .innerJoin('boundary', 'boundary.uuid', 'alert.boundary_uuid')
    .innerJoin('metric', 'metric.uuid', 'boundary.metric_uuid')
    .innerJoin('report_benchmark', 'report_benchmark.uuid', 'metric.report_benchmark_uuid')
    .innerJoin('report', 'report.uuid', 'report_benchmark.report_uuid')
    .select(['alert.uuid', 'alert.status', 'report.created as report_created'])
    .where('alert.project_uuid', '=', projectUuid)
    .where('alert.uuid', '=', uuid)
    .executeTakeFirst();

export async function setAlertStatus(db: Db, uuid: string, status: AlertStatus, now = Date.now()): Promise<void> {
  await db.updateTable('alert').set({ status, modified: now }).where('uuid', '=', uuid).execute();
}

/** Dismisses every active alert of the project shown by default (non-archived dimensions). */
export async function dismissAllAlerts(db: Db, projectUuid: string, now = Date.now()): Promise<number> {
  const active = await alertsOfProject(db, { projectUuid, archived: false, status: 'active' })
    .select('alert.uuid')
    .execute();
  if (active.length === 0) return 0;
  const result = await db
    .updateTable('alert')
    .set({ status: 'dismissed', modified: now })
    .where(
      'uuid',
      'in',
      active.map((row) => row.uuid),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
