import type { Generated, Insertable, Kysely, Selectable } from 'kysely';
import { leasedRows } from './leased-rows.js';

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

const outboxRows = leasedRows('outbox', 'queued');

/** Takes a queued message for one attempt (`leasedRows().claim`); false when another process took it first. */
export const claimMessage = (db: Kysely<OutboxDatabase>, message: DueMessage, leaseUntil: number) =>
  outboxRows.claim(db, message, leaseUntil);

export const markSent = (db: Kysely<OutboxDatabase>, id: number, now: number) => outboxRows.markSent(db, id, now);

/** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
export const markAttemptFailed = (db: Kysely<OutboxDatabase>, id: number, error: string, retryAt: number | undefined) =>
  outboxRows.markFailed(db, id, error, retryAt);
