import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The perf query reads `report_benchmark` and `metric` from covering indexes only (no table lookup per
 * row), and a report counts its metrics, so the daily metric limit sums one column over the day's
 * reports instead of counting every metric of the day.
 */
export const perfCoveringMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const s = db.schema;
    await s
      .createIndex('report_benchmark_perf')
      .on('report_benchmark')
      .columns(['report_uuid', 'benchmark_uuid', 'iteration', 'uuid'])
      .execute();
    await s.dropIndex('report_benchmark_report').execute();
    await s
      .createIndex('metric_perf')
      .on('metric')
      .columns(['report_benchmark_uuid', 'measure_uuid', 'uuid', 'value', 'lower_value', 'upper_value'])
      .execute();
    await s.dropIndex('metric_report_benchmark_measure').execute();
    await s
      .alterTable('report')
      .addColumn('metric_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      update report set metric_count = (
        select count(*) from report_benchmark rb join metric m on m.report_benchmark_uuid = rb.uuid
        where rb.report_uuid = report.uuid
      )`.execute(db);
    await s
      .createIndex('report_project_created_metrics')
      .on('report')
      .columns(['project_uuid', 'created', 'metric_count'])
      .execute();
    await s.dropIndex('report_project_created').execute();
  },
};
