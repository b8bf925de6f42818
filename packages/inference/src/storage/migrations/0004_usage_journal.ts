import type { Kysely, Migration } from 'kysely';

/** How far each gateway process's local usage journal has been added to `usage_hourly` (see `usage-journal.ts`). */
export const usageJournalMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('usage_journal_mark')
      .addColumn('journal', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .execute();
  },
};
