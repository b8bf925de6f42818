import { createOutboxTable } from '@atrium/core';
import type { Kysely, Migration } from 'kysely';

/** The outbox the mailer sends from (or operators read), and the confirmation tokens already used. */
export const accountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createOutboxTable(db);
    await db.schema
      .createTable('used_auth_token')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('used_auth_token_expires').on('used_auth_token').column('expires').execute();
  },
};
