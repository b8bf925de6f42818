import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Alerts carry their project, so a project's alerts are listed from an index on `alert` rather than by
 * walking every report, benchmark and metric of the project.
 */
export const alertProjectMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('alert').addColumn('project_uuid', 'text').execute();
    await sql`
      update alert set project_uuid = (
        select r.project_uuid
        from boundary b
        join metric m on m.uuid = b.metric_uuid
        join report_benchmark rb on rb.uuid = m.report_benchmark_uuid
        join report r on r.uuid = rb.report_uuid
        where b.uuid = alert.boundary_uuid
      )`.execute(db);
    await db.schema.createIndex('alert_project_status').on('alert').columns(['project_uuid', 'status']).execute();
  },
};
