import type { Kysely, Migration } from 'kysely';
import { serialPrimaryKey } from './serial.js';

/** One row per announcement and configured chat channel: its delivery state (see `storage/announcement-deliveries.ts`). */
export const announcementDeliveryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('announcement_delivery')
      .addColumn('id', 'integer', serialPrimaryKey(db))
      .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcement.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('sent_at', 'bigint')
      .addUniqueConstraint('announcement_delivery_once', ['announcement_id', 'channel'])
      .execute();
    await db.schema
      .createIndex('announcement_delivery_due')
      .on('announcement_delivery')
      .columns(['status', 'next_attempt'])
      .execute();
  },
};
