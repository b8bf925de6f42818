import type { Kysely, Migration } from 'kysely';

export const projectMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('project')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
  },
};
