import type { Kysely } from 'kysely';

/** The columns a table of background deliveries has (the outbox, chat-channel deliveries). Timestamps in ms. */
interface LeasedRowTable {
  id: number;
  status: string;
  /** Attempts so far. */
  attempts: number;
  /** When a due row is due (again); an attempt in progress pushes it out by a lease. */
  next_attempt: number;
  last_error: string | null;
  sent_at: number | null;
}

/**
 * The attempt bookkeeping of a table of deliveries that background senders on one database share: `table` names
 * it, a row waiting for an attempt has the status `due`, one that went out `sent`, one given up on `failed`.
 */
export function leasedRows(table: string, due: string) {
  const name = table as 'rows';
  const rowsOf = <DB>(db: Kysely<DB>) => db as unknown as Kysely<{ rows: LeasedRowTable }>;
  return {
    /**
     * Takes a due row for one attempt: counts the attempt and moves it out of reach until `leaseUntil`, unless
     * another process took it first (then false). A process that dies mid-attempt leaves it due again after the lease.
     */
    async claim<DB>(db: Kysely<DB>, row: { id: number; attempts: number }, leaseUntil: number): Promise<boolean> {
      const result = await rowsOf(db)
        .updateTable(name)
        .set({ attempts: row.attempts + 1, next_attempt: leaseUntil })
        .where('id', '=', row.id)
        .where('status', '=', due)
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async markSent<DB>(db: Kysely<DB>, id: number, now: number): Promise<void> {
      await rowsOf(db)
        .updateTable(name)
        .set({ status: 'sent', sent_at: now, last_error: null })
        .where('id', '=', id)
        .execute();
    },

    /** Records a failed attempt: due again at `retryAt`, or failed for good when `retryAt` is undefined. */
    async markFailed<DB>(db: Kysely<DB>, id: number, error: string, retryAt: number | undefined): Promise<void> {
      await rowsOf(db)
        .updateTable(name)
        .set(
          retryAt === undefined
            ? { status: 'failed', last_error: error }
            : { next_attempt: retryAt, last_error: error },
        )
        .where('id', '=', id)
        .execute();
    },
  };
}
