import type { Kysely, Migration } from 'kysely';

/**
 * Change points found by `change_point` thresholds (an Atrium extension): the last metric of the old regime, the
 * first of the new one, their locations and the report (and boundary) that found it. A series' regime restarts
 * at the first metric of its latest change point.
 */
export const changePointsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('change_point')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('project_uuid', 'text', (c) => c.references('project.uuid').notNull())
      .addColumn('threshold_uuid', 'text', (c) => c.references('threshold.uuid').notNull())
      .addColumn('model_uuid', 'text', (c) => c.references('model.uuid').notNull())
      .addColumn('head_uuid', 'text', (c) => c.references('head.uuid').notNull())
      .addColumn('testbed_uuid', 'text', (c) => c.references('testbed.uuid').notNull())
      .addColumn('benchmark_uuid', 'text', (c) => c.references('benchmark.uuid').notNull())
      .addColumn('measure_uuid', 'text', (c) => c.references('measure.uuid').notNull())
      .addColumn('report_uuid', 'text', (c) => c.references('report.uuid').notNull())
      .addColumn('boundary_uuid', 'text', (c) => c.references('boundary.uuid').notNull())
      .addColumn('last_metric_uuid', 'text', (c) => c.references('metric.uuid').notNull())
      .addColumn('first_metric_uuid', 'text', (c) => c.references('metric.uuid').notNull())
      .addColumn('before', 'double precision', (c) => c.notNull())
      .addColumn('after', 'double precision', (c) => c.notNull())
      .addColumn('shift', 'double precision')
      .addColumn('direction', 'text', (c) => c.notNull())
      .addColumn('score', 'double precision', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('change_point_boundary', ['boundary_uuid'])
      .execute();
    await db.schema.createIndex('change_point_first_metric').on('change_point').column('first_metric_uuid').execute();
    await db.schema.createIndex('change_point_last_metric').on('change_point').column('last_metric_uuid').execute();
    await db.schema.createIndex('change_point_report').on('change_point').column('report_uuid').execute();
    await db.schema
      .createIndex('change_point_series')
      .on('change_point')
      .columns(['testbed_uuid', 'measure_uuid', 'benchmark_uuid'])
      .execute();
  },
};
