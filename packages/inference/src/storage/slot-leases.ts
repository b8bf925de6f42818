import { dialectOf } from '@atrium/core';
import { type Kysely, sql } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/**
 * Sets `holder`'s lease of a resource's concurrency slots to `slots` (until `expires`) if the live leases
 * of all other holders plus `slots` stay within the resource's limit. PostgreSQL locks the resource row
 * first, so the sum is read after every earlier lease committed; SQLite runs one writer at a time.
 * Leases of a process that stopped without giving them back stop counting when they expire.
 */
export async function leaseSlots(
  db: Kysely<InferenceDatabase>,
  resourceId: string,
  holder: string,
  slots: number,
  now: number,
  expires: number,
): Promise<boolean> {
  const upsert = sql<{ slots: number }>`
    insert into inference_slot_lease (resource_id, holder, slots, expires)
      select ${resourceId}, ${holder}, ${slots}, ${expires}
      where (select coalesce(sum(slots), 0) from inference_slot_lease
               where resource_id = ${resourceId} and holder <> ${holder} and expires > ${now}) + ${slots}
            <= (select coalesce(concurrent_requests, ${slots}) from inference_resource where id = ${resourceId})
      on conflict (resource_id, holder) do update set slots = excluded.slots, expires = excluded.expires
      returning slots`;
  if (dialectOf(db as Kysely<unknown>) === 'sqlite') return (await upsert.execute(db)).rows.length > 0;
  return db.transaction().execute(async (trx) => {
    await sql`select 1 from inference_resource where id = ${resourceId} for update`.execute(trx);
    return (await upsert.execute(trx)).rows.length > 0;
  });
}

/** Shrinks (or renews) `holder`'s lease without a limit check: giving slots back never needs one. */
export async function renewSlots(
  db: Kysely<InferenceDatabase>,
  resourceId: string,
  holder: string,
  slots: number,
  expires: number,
): Promise<void> {
  if (slots === 0) {
    await sql`delete from inference_slot_lease where resource_id = ${resourceId} and holder = ${holder}`.execute(db);
    return;
  }
  await sql`update inference_slot_lease set slots = ${slots}, expires = ${expires}
      where resource_id = ${resourceId} and holder = ${holder}`.execute(db);
}
