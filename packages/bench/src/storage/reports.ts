import type { Page } from '../wire/pagination.js';
import type { NameId } from '../wire/slug.js';
import { archivedScope } from './archived-scope.js';
import { lockHeads } from './branches.js';
import { deleteChangePointsOf } from './change-points.js';
import { paged } from './list-query.js';
import type { Db } from './types.js';

export const findReport = (db: Db, projectUuid: string, uuid: string) =>
  db
    .selectFrom('report')
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where('uuid', '=', uuid)
    .executeTakeFirst();

export const findReportByIdempotencyKey = (db: Db, projectUuid: string, key: string) =>
  db
    .selectFrom('report')
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();

export interface ReportFilter {
  projectUuid: string;
  archived: boolean;
  branch?: NameId | undefined;
  testbed?: NameId | undefined;
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/** The reports a list shows, filtered, before its order and page. */
export function filteredReports(db: Db, filter: ReportFilter) {
  const { projectUuid } = filter;
  let query = db
    .selectFrom('report')
    .where('report.project_uuid', '=', projectUuid)
    .where(
      archivedScope(db, projectUuid, { head: 'report.head_uuid', testbed: 'report.testbed_uuid' }, filter.archived),
    );
  const { branch, testbed } = filter;
  if (branch) {
    const heads = db
      .selectFrom('head')
      .innerJoin('branch', 'branch.uuid', 'head.branch_uuid')
      .select('head.uuid')
      .where('branch.project_uuid', '=', projectUuid)
      .where(`branch.${branch.column}`, '=', branch.value);
    query = query.where('report.head_uuid', 'in', heads);
  }
  if (testbed) {
    const testbeds = db
      .selectFrom('testbed')
      .select('uuid')
      .where('project_uuid', '=', projectUuid)
      .where(testbed.column, '=', testbed.value);
    query = query.where('report.testbed_uuid', 'in', testbeds);
  }
  if (filter.startTime !== undefined) query = query.where('report.start_time', '>=', filter.startTime);
  if (filter.endTime !== undefined) query = query.where('report.end_time', '<=', filter.endTime);
  return query;
}

/** Newest first by default: start, end and creation time (an index's order; see migration 0010). */
export function listReports(db: Db, filter: ReportFilter, page: Page) {
  const direction = page.direction ?? 'desc';
  return paged(
    filteredReports(db, filter),
    (q) =>
      q
        .selectAll('report')
        .orderBy('report.start_time', direction)
        .orderBy('report.end_time', direction)
        .orderBy('report.created', direction)
        .orderBy('report.uuid'),
    page,
  );
}

/**
 * Deletes a report with its metrics, boundaries, alerts and the change points it found or that begin or end in it. When it was its version's last report the
 * version goes too, and later versions of every head that saw it move down by one.
 */
export async function deleteReport(db: Db, report: { uuid: string; version_uuid: string }): Promise<void> {
  const reportBenchmarks = db.selectFrom('report_benchmark').select('uuid').where('report_uuid', '=', report.uuid);
  const metrics = db.selectFrom('metric').select('uuid').where('report_benchmark_uuid', 'in', reportBenchmarks);
  const boundaries = db.selectFrom('boundary').select('uuid').where('metric_uuid', 'in', metrics);
  await deleteChangePointsOf(db, report.uuid);
  await db.deleteFrom('alert').where('boundary_uuid', 'in', boundaries).execute();
  await db.deleteFrom('boundary').where('metric_uuid', 'in', metrics).execute();
  await db.deleteFrom('metric').where('report_benchmark_uuid', 'in', reportBenchmarks).execute();
  await db.deleteFrom('report_benchmark').where('report_uuid', '=', report.uuid).execute();
  await db.deleteFrom('report').where('uuid', '=', report.uuid).execute();
  const others = await db
    .selectFrom('report')
    .select('uuid')
    .where('version_uuid', '=', report.version_uuid)
    .executeTakeFirst();
  if (others) return;
  const version = await db.selectFrom('version').selectAll().where('uuid', '=', report.version_uuid).executeTakeFirst();
  if (!version) return;
  const heads = await db
    .selectFrom('head_version')
    .select('head_uuid')
    .where('version_uuid', '=', version.uuid)
    .execute();
  const headUuids = heads.map((head) => head.head_uuid);
  await lockHeads(db, headUuids);
  await db
    .updateTable('head')
    .set({ start_version_uuid: null })
    .where('start_version_uuid', '=', version.uuid)
    .execute();
  await db.deleteFrom('head_version').where('version_uuid', '=', version.uuid).execute();
  await db.deleteFrom('version').where('uuid', '=', version.uuid).execute();
  if (headUuids.length === 0) return;
  await db
    .updateTable('head_version')
    .set((eb) => ({ number: eb('number', '-', 1) }))
    .where('version_uuid', 'in', (eb) =>
      eb
        .selectFrom('head_version')
        .select('version_uuid')
        .where('head_uuid', 'in', headUuids)
        .where('number', '>', version.number),
    )
    .execute();
  await db
    .updateTable('version')
    .set((eb) => ({ number: eb('number', '-', 1) }))
    .where('number', '>', version.number)
    .where('uuid', 'in', (eb) =>
      eb.selectFrom('head_version').select('version_uuid').where('head_uuid', 'in', headUuids),
    )
    .execute();
}
