import type { Kysely, Migration } from 'kysely';

/** Projects created on the fly by anonymous runs, per client address, for their daily limit. */
export const anonymousCreationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('anonymous_creation')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('anonymous_creation_address')
      .on('anonymous_creation')
      .columns(['address', 'created'])
      .execute();
  },
};
