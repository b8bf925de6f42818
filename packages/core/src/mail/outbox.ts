import type { Generated, Insertable, Kysely, Selectable } from 'kysely';

/**
 * The outbox table every service keeps messages in: `outbox` (no SMTP; read by operators), `queued` (for the
 * SMTP mailer), then `sent` or `failed`. Timestamps are milliseconds.
 */
export type OutboxStatus = 'outbox' | 'queued' | 'sent' | 'failed';

export interface OutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body: string;
  created: number;
  status: OutboxStatus;
  /** SMTP attempts so far. */
  attempts: Generated<number>;
  /** When a queued message is due (again); an attempt in progress pushes it out by a lease. */
  next_attempt: Generated<number>;
  last_error: string | null;
  sent_at: number | null;
}

export interface OutboxDatabase {
  outbox: OutboxTable;
}

export type OutboxMessage = Selectable<OutboxTable>;
export type DueMessage = Pick<OutboxMessage, 'id' | 'recipient' | 'subject' | 'body' | 'attempts'>;
export type NewOutboxMessage = Insertable<OutboxTable>;

/** Any service database (or transaction) with an `outbox` table, seen as just that table. */
export const outboxOf = <DB extends OutboxDatabase>(db: Kysely<DB>) => db as unknown as Kysely<OutboxDatabase>;

export async function queueEmails<DB extends OutboxDatabase>(db: Kysely<DB>, rows: NewOutboxMessage[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await outboxOf(db)
      .insertInto('outbox')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** The newest messages first. */
export const latestOutbox = <DB extends OutboxDatabase>(db: Kysely<DB>, limit: number): Promise<OutboxMessage[]> =>
  outboxOf(db).selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();

/** Messages waiting for SMTP whose (next) attempt is due, oldest first. */
export const dueMessages = (db: Kysely<OutboxDatabase>, now: number, limit: number): Promise<DueMessage[]> =>
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
export async function claimMessage(db: Kysely<OutboxDatabase>, message: DueMessage, leaseUntil: number) {
  const result = await db
    .updateTable('outbox')
    .set({ attempts: message.attempts + 1, next_attempt: leaseUntil })
    .where('id', '=', message.id)
    .where('status', '=', 'queued')
    .where('attempts', '=', message.attempts)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function markSent(db: Kysely<OutboxDatabase>, id: number, now: number) {
  await db.updateTable('outbox').set({ status: 'sent', sent_at: now, last_error: null }).where('id', '=', id).execute();
}

/** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
export async function markAttemptFailed(
  db: Kysely<OutboxDatabase>,
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
