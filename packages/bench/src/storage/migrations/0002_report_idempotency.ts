import type { Kysely, Migration } from 'kysely';

/** `POST /v0/run` may carry an idempotency key: a resubmission answers the report already stored. */
export const reportIdempotencyMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('report').addColumn('idempotency_key', 'text').execute();
    await db.schema
      .createIndex('report_idempotency')
      .unique()
      .on('report')
      .columns(['project_uuid', 'idempotency_key'])
      .execute();
  },
};
