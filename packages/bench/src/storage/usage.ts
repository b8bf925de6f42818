import type { Db } from './types.js';

/** Metrics stored in the organisation's projects by reports created in [start, end] (Unix ms). */
export async function countMetrics(db: Db, organizationUuid: string, start: number, end: number): Promise<number> {
  const row = await db
    .selectFrom('metric')
    .innerJoin('report_benchmark', 'report_benchmark.uuid', 'metric.report_benchmark_uuid')
    .innerJoin('report', 'report.uuid', 'report_benchmark.report_uuid')
    .innerJoin('project', 'project.uuid', 'report.project_uuid')
    .where('project.organization_uuid', '=', organizationUuid)
    .where('report.created', '>=', start)
    .where('report.created', '<=', end)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
