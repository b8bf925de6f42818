import type { Kysely, Migration } from 'kysely';
import { serialPrimaryKey } from './serial.js';

/** Who topped up which resource when, and the delivery state of every outbox message. */
export const operatorMailMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const serial = serialPrimaryKey(db);
    await db.schema
      .createTable('credit_top_up')
      .addColumn('id', 'integer', serial)
      .addColumn('resource_id', 'text', (c) => c.notNull().references('inference_resource.id').onDelete('cascade'))
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('operator_id', 'text', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_top_up_created').on('credit_top_up').column('created').execute();
    // SQLite adds one column per ALTER TABLE. Rows from before were never meant for SMTP: they stay in the outbox.
    const outbox = () => db.schema.alterTable('outbox');
    await outbox()
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('outbox'))
      .execute();
    await outbox()
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await outbox()
      .addColumn('next_attempt', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await outbox().addColumn('last_error', 'text').execute();
    await outbox().addColumn('sent_at', 'bigint').execute();
    await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt']).execute();
  },
};
