import type { Kysely, Migration } from 'kysely';

/**
 * Keys as users manage them: an optional expiry, per-key requests and tokens per minute with their minute's
 * counters (as the resource's), and when the secret was last rotated.
 */
export const keyManagementMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    const apiKey = () => db.schema.alterTable('api_key');
    await apiKey().addColumn('expires', 'bigint').execute();
    await apiKey().addColumn('requests_per_minute', 'integer').execute();
    await apiKey().addColumn('tokens_per_minute', 'bigint').execute();
    await apiKey()
      .addColumn('window_minute', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await apiKey()
      .addColumn('window_requests', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await apiKey()
      .addColumn('window_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await apiKey().addColumn('rotated', 'bigint').execute();
  },
};
