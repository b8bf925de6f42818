import type { Kysely, Migration } from 'kysely';

export const archiveMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('archive')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('format_version', 'text', (c) => c.notNull())
      .addColumn('node_count', 'bigint', (c) => c.notNull())
      .addColumn('loaded_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
