import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The daily report and metric limits read hourly counters instead of counting the project's reports of
 * the last day, a range as long as the day's reports (tens of thousands for a busy project) read by every
 * report. The counters start from the reports stored in the last day.
 */
export const reportUsageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('report_usage')
      .addColumn('project_uuid', 'text', (c) => c.notNull().references('project.uuid'))
      .addColumn('hour', 'integer', (c) => c.notNull())
      .addColumn('reports', 'integer', (c) => c.notNull())
      .addColumn('metrics', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_usage_pkey', ['project_uuid', 'hour'])
      .execute();
    const since = Date.now() - 25 * 3_600_000;
    await sql`insert into report_usage (project_uuid, hour, reports, metrics)
      select project_uuid, hour, count(*), sum(metric_count)
      from (select project_uuid, floor(created / 3600000) as hour, metric_count from report where created >= ${since}) r
      group by project_uuid, hour`.execute(db);
  },
};
