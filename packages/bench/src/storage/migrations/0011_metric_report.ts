import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A metric carries its report, benchmark and iteration (copied from its `report_benchmark` row, which
 * stays), and one index covers the perf query: a plotted report's metrics of a measure are one index range
 * instead of a `report_benchmark` probe per benchmark and a `metric` probe per row.
 */
export const metricReportMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const s = db.schema;
    await s.alterTable('metric').addColumn('report_uuid', 'text').execute();
    await s.alterTable('metric').addColumn('benchmark_uuid', 'text').execute();
    await s.alterTable('metric').addColumn('iteration', 'integer').execute();
    await sql`
      update metric set report_uuid = rb.report_uuid, benchmark_uuid = rb.benchmark_uuid, iteration = rb.iteration
      from report_benchmark rb where rb.uuid = metric.report_benchmark_uuid`.execute(db);
    await s
      .createIndex('metric_report_perf')
      .on('metric')
      .columns([
        'report_uuid',
        'measure_uuid',
        'benchmark_uuid',
        'iteration',
        'uuid',
        'value',
        'lower_value',
        'upper_value',
      ])
      .execute();
  },
};
