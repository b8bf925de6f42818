import type { Kysely, Migration } from 'kysely';

export const organizationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organization')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('modified', 'bigint', (c) => c.notNull())
      .execute();
  },
};
