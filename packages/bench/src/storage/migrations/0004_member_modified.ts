import { type Kysely, type Migration, sql } from 'kysely';

/** Members show when their role last changed (`JsonMember.modified`); existing roles start at `created`. */
export const memberModifiedMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('organization_role')
      .addColumn('modified', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update organization_role set modified = created`.execute(db);
  },
};
