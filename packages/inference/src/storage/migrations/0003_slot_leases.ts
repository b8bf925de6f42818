import type { Kysely, Migration } from 'kysely';

/** Each gateway process's lease of a resource's concurrency slots (see `slot-leases.ts`). */
export const slotLeasesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('inference_slot_lease')
      .addColumn('resource_id', 'text', (c) => c.notNull().references('inference_resource.id').onDelete('cascade'))
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('slots', 'integer', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('inference_slot_lease_pk', ['resource_id', 'holder'])
      .execute();
  },
};
