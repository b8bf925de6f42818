import { leasedRows } from '@atrium/core';
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

const deliveryRows = leasedRows('announcement_delivery', 'pending');

/** Takes a due delivery for one attempt (`leasedRows().claim`); false when another process took it first. */
export const claimDelivery = (
  db: Kysely<InferenceDatabase>,
  delivery: Pick<DueDelivery, 'id' | 'attempts'>,
  leaseUntil: number,
): Promise<boolean> => deliveryRows.claim(db, delivery, leaseUntil);

export const markDelivered = (db: Kysely<InferenceDatabase>, id: number, now: number): Promise<void> =>
  deliveryRows.markSent(db, id, now);

/** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
export const markDeliveryFailed = (
  db: Kysely<InferenceDatabase>,
  id: number,
  error: string,
  retryAt: number | undefined,
): Promise<void> => deliveryRows.markFailed(db, id, error, retryAt);

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
