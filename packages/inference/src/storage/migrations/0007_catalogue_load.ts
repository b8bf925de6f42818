import type { Kysely, Migration } from 'kysely';

/** One row per running gateway process: the catalogue version it loaded, or why it could not. */
export const catalogueLoadMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('catalogue_load')
      .addColumn('process', 'text', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('seen', 'bigint', (c) => c.notNull())
      .execute();
  },
};
