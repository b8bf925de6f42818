import type { Kysely, Selectable } from 'kysely';
import type { Announcement } from './announcements.js';
import type { AnnouncementDeliveryTable, InferenceDatabase } from './schema.js';

export type AnnouncementDelivery = Selectable<AnnouncementDeliveryTable>;

/** A due delivery with the announcement it carries. */
export interface DueDelivery {
  id: number;
  channel: string;
  attempts: number;
  announcement: Announcement;
}

/** A delivery as the outbox lists it: with its announcement's kind and title. */
export type DeliveryListing = AnnouncementDelivery & Pick<Announcement, 'kind' | 'title'>;

/** One pending delivery per channel for a new announcement (in its transaction). */
export async function queueDeliveries(
  db: Kysely<InferenceDatabase>,
  announcementId: number,
  channels: readonly string[],
  now: number,
): Promise<void> {
  if (channels.length === 0) return;
  await db
    .insertInto('announcement_delivery')
    .values(channels.map((channel) => ({ announcement_id: announcementId, channel, status: 'pending', created: now })))
    .execute();
}

/** Pending deliveries to `channels` whose (next) attempt is due, oldest first. */
export async function dueDeliveries(
  db: Kysely<InferenceDatabase>,
  channels: readonly string[],
  now: number,
  limit: number,
): Promise<DueDelivery[]> {
  if (channels.length === 0) return [];
  const rows = await db
    .selectFrom('announcement_delivery as d')
    .innerJoin('announcement as a', 'a.id', 'd.announcement_id')
    .select(['d.id', 'd.channel', 'd.attempts'])
    .select(['a.id as a_id', 'a.kind', 'a.title', 'a.body', 'a.starts', 'a.ends', 'a.created'])
    .where('d.status', '=', 'pending')
    .where('d.channel', 'in', channels)
    .where('d.next_attempt', '<=', now)
    .orderBy('d.next_attempt')
    .orderBy('d.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    attempts: r.attempts,
    announcement: {
      id: r.a_id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      starts: r.starts,
      ends: r.ends,
      created: r.created,
    },
  }));
}

/**
 * Takes a due delivery for one attempt: counts the attempt and moves it out of reach until `leaseUntil`, unless
 * another process took it first (then false). A process that dies mid-attempt leaves it due again after the lease.
 */
export async function claimDelivery(
  db: Kysely<InferenceDatabase>,
  delivery: Pick<DueDelivery, 'id' | 'attempts'>,
  leaseUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('announcement_delivery')
    .set({ attempts: delivery.attempts + 1, next_attempt: leaseUntil })
    .where('id', '=', delivery.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', delivery.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function markDelivered(db: Kysely<InferenceDatabase>, id: number, now: number): Promise<void> {
  await db
    .updateTable('announcement_delivery')
    .set({ status: 'sent', sent_at: now, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
export async function markDeliveryFailed(
  db: Kysely<InferenceDatabase>,
  id: number,
  error: string,
  retryAt: number | undefined,
): Promise<void> {
  await db
    .updateTable('announcement_delivery')
    .set(retryAt === undefined ? { status: 'failed', last_error: error } : { next_attempt: retryAt, last_error: error })
    .where('id', '=', id)
    .execute();
}

/** The newest deliveries first. */
export const latestDeliveries = (db: Kysely<InferenceDatabase>, limit: number): Promise<DeliveryListing[]> =>
  db
    .selectFrom('announcement_delivery as d')
    .innerJoin('announcement as a', 'a.id', 'd.announcement_id')
    .selectAll('d')
    .select(['a.kind', 'a.title'])
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
