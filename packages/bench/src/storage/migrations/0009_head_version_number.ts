import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A head's versions carry their number, indexed, so the newest version of a head, its version for a
 * hash and its newest reports are found by an index range instead of by reading the head's whole
 * history on every report.
 */
export const headVersionNumberMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('head_version')
      .addColumn('number', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      update head_version set number = (select v.number from version v where v.uuid = head_version.version_uuid)
    `.execute(db);
    await db.schema
      .createIndex('head_version_number')
      .on('head_version')
      .columns(['head_uuid', 'number', 'version_uuid'])
      .execute();
  },
};
