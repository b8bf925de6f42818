import type { Insertable, Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, OutboxTable } from './schema.js';

export type OutboxMessage = Selectable<OutboxTable>;
export type DueMessage = Pick<OutboxMessage, 'id' | 'recipient' | 'subject' | 'body' | 'attempts'>;

export async function queueEmails(db: Kysely<InferenceDatabase>, rows: Insertable<OutboxTable>[]) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('outbox')
      .values(rows.slice(i, i + 500))
      .execute();
}

export const latestOutbox = (db: Kysely<InferenceDatabase>, limit: number): Promise<OutboxMessage[]> =>
  db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();

/** Messages waiting for SMTP whose (next) attempt is due, oldest first. */
export const dueMessages = (db: Kysely<InferenceDatabase>, now: number, limit: number): Promise<DueMessage[]> =>
  db
    .selectFrom('outbox')
    .select(['id', 'recipient', 'subject', 'body', 'attempts'])
    .where('status', '=', 'queued')
    .where('next_attempt', '<=', now)
    .orderBy('next_attempt')
    .orderBy('id')
    .limit(limit)
    .execute();

/**
 * Takes a due message for one attempt: counts the attempt and moves it out of reach until `leaseUntil`, unless
 * another process took it first (then false). A process that dies mid-attempt leaves it due again after the lease.
 */
export async function claimMessage(db: Kysely<InferenceDatabase>, message: DueMessage, leaseUntil: number) {
  const result = await db
    .updateTable('outbox')
    .set({ attempts: message.attempts + 1, next_attempt: leaseUntil })
    .where('id', '=', message.id)
    .where('status', '=', 'queued')
    .where('attempts', '=', message.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function markSent(db: Kysely<InferenceDatabase>, id: number, now: number) {
  await db.updateTable('outbox').set({ status: 'sent', sent_at: now, last_error: null }).where('id', '=', id).execute();
}

/** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
export async function markAttemptFailed(
  db: Kysely<InferenceDatabase>,
  id: number,
  error: string,
  retryAt: number | undefined,
) {
  await db
    .updateTable('outbox')
    .set(retryAt === undefined ? { status: 'failed', last_error: error } : { next_attempt: retryAt, last_error: error })
    .where('id', '=', id)
    .execute();
}
