import { type Kysely, sql, type Transaction } from 'kysely';
import type { InferenceDatabase, UsageHourlyTable } from './schema.js';
import type { JournalTail } from './usage-journal.js';

export type UsageRow = UsageHourlyTable;

/** Adds a batch of counters (key × model × hour) to the stored ones, in one transaction. */
export async function addUsage(db: Kysely<InferenceDatabase>, rows: readonly UsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute((trx) => insertUsage(trx, rows));
}

/**
 * Adds what a journal holds beyond its stored mark and moves the mark, in one transaction, so each entry
 * is added exactly once. The mark is locked first: a transaction of a process that just died either
 * committed before it or never will. `read` gets the mark and returns the entries after it; the new mark.
 */
export async function addJournalledUsage(
  db: Kysely<InferenceDatabase>,
  journal: string,
  read: (mark: number) => JournalTail,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { seq: mark } = await trx
      .insertInto('usage_journal_mark')
      .values({ journal, seq: 0 })
      .onConflict((oc) => oc.column('journal').doUpdateSet({ seq: sql`usage_journal_mark.seq` }))
      .returning('seq')
      .executeTakeFirstOrThrow();
    const { rows, through } = read(mark);
    if (through <= mark) return mark;
    await insertUsage(trx, rows);
    await trx.updateTable('usage_journal_mark').set({ seq: through }).where('journal', '=', journal).execute();
    return through;
  });
}

/** Forgets a journal whose file is gone. */
export async function dropJournalMark(db: Kysely<InferenceDatabase>, journal: string): Promise<void> {
  await db.deleteFrom('usage_journal_mark').where('journal', '=', journal).execute();
}

async function insertUsage(trx: Transaction<InferenceDatabase>, rows: readonly UsageRow[]): Promise<void> {
  // Sorted, so concurrent flushes from several processes lock rows in the same order (no deadlocks).
  const sorted = [...rows].sort((a, b) =>
    a.key_id === b.key_id
      ? a.hour === b.hour
        ? a.model < b.model
          ? -1
          : 1
        : a.hour - b.hour
      : a.key_id < b.key_id
        ? -1
        : 1,
  );
  for (let i = 0; i < sorted.length; i += 500) {
    await trx
      .insertInto('usage_hourly')
      .values(sorted.slice(i, i + 500))
      .onConflict((oc) =>
        oc.columns(['key_id', 'hour', 'model']).doUpdateSet({
          requests: sql`usage_hourly.requests + excluded.requests`,
          prompt_tokens: sql`usage_hourly.prompt_tokens + excluded.prompt_tokens`,
          completion_tokens: sql`usage_hourly.completion_tokens + excluded.completion_tokens`,
          credits: sql`usage_hourly.credits + excluded.credits`,
        }),
      )
      .execute();
  }
}

/** One key's counters per hour and model in [from, to), oldest first: the usage chart. */
export const usageOfKey = (db: Kysely<InferenceDatabase>, keyId: string, from: number, to: number) =>
  db
    .selectFrom('usage_hourly')
    .select(['hour', 'model', 'requests', 'prompt_tokens', 'completion_tokens', 'credits'])
    .where('key_id', '=', keyId)
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .orderBy('hour')
    .orderBy('model')
    .execute();

/** Totals per key for a set of keys since a time: the key list's usage column. */
export const usageTotalsOfKeys = (db: Kysely<InferenceDatabase>, keyIds: readonly string[], from: number) =>
  keyIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('usage_hourly')
        .select((eb) => [
          'key_id',
          eb.fn.sum<number>('requests').as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
          eb.fn.sum<number>('credits').as('credits'),
        ])
        .where('key_id', 'in', keyIds)
        .where('hour', '>=', from)
        .groupBy('key_id')
        .execute()
        // PostgreSQL sums bigints as numeric, which pg returns as text.
        .then((rows) =>
          rows.map((r) => ({
            key_id: r.key_id,
            requests: Number(r.requests),
            prompt_tokens: Number(r.prompt_tokens),
            completion_tokens: Number(r.completion_tokens),
            credits: Number(r.credits),
          })),
        );
