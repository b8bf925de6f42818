import type { Kysely, Migration } from 'kysely';

/**
 * The reports list counts a project's reports on the heads and testbeds in scope from an index that
 * covers the count, and reads its page from the newest end of an index in its order (start, end and
 * creation time) instead of sorting every report of the project. The new order index starts as the
 * one it replaces, (project, start time), which the perf window reads.
 */
export const reportListMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const s = db.schema;
    await s
      .createIndex('report_project_scope')
      .on('report')
      .columns(['project_uuid', 'head_uuid', 'testbed_uuid'])
      .execute();
    await s
      .createIndex('report_project_times')
      .on('report')
      .columns(['project_uuid', 'start_time', 'end_time', 'created'])
      .execute();
    await s.dropIndex('report_project_time').execute();
  },
};
