import { type Kysely, sql } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/** What one request holds until it is settled. */
export interface Reservation {
  keyId: string;
  resourceId: string;
  /** The key's period the tokens were reserved in. */
  periodStart: number;
  /** The resource's rate-limit minute the request was counted in. */
  minute: number;
  tokens: number;
  credits: number;
}

export type ReserveOutcome = 'reserved' | 'key' | 'resource';

/**
 * Reserves tokens against the key's period budget and credits, one request and tokens against the
 * resource's per-minute limits, in one transaction of two conditional UPDATEs (each row's counter is
 * tested and incremented in the same statement, under the row lock: no check-then-act). A counter
 * belonging to an earlier period or minute counts as zero. Also stamps the key's last use and refuses
 * revoked keys, so a revocation takes effect on every gateway process at once.
 */
export async function reserve(db: Kysely<InferenceDatabase>, r: Reservation, now: number): Promise<ReserveOutcome> {
  return db
    .transaction()
    .execute(async (trx) => {
      const current = sql<number>`case when period_start >= ${r.periodStart} then period_used else 0 end`;
      const key = await trx
        .updateTable('api_key')
        .set({
          period_used: sql`${current} + ${r.tokens}`,
          period_start: sql`case when period_start >= ${r.periodStart} then period_start else ${r.periodStart} end`,
          last_used: now,
        })
        .where('id', '=', r.keyId)
        .where('revoked', 'is', null)
        .where((eb) =>
          eb.or([eb('budget_tokens', 'is', null), eb(sql`${current} + ${r.tokens}`, '<=', eb.ref('budget_tokens'))]),
        )
        .executeTakeFirst();
      if (key.numUpdatedRows === 0n) return 'key';
      const requests = sql<number>`case when window_minute = ${r.minute} then window_requests else 0 end`;
      const tokens = sql<number>`case when window_minute = ${r.minute} then window_tokens else 0 end`;
      const resource = await trx
        .updateTable('inference_resource')
        .set({
          credits_used: sql`credits_used + ${r.credits}`,
          window_requests: sql`${requests} + 1`,
          window_tokens: sql`${tokens} + ${r.tokens}`,
          window_minute: r.minute,
        })
        .where('id', '=', r.resourceId)
        .where(sql<boolean>`credits_used + ${r.credits} <= credits_total`)
        .where((eb) =>
          eb.or([eb('requests_per_minute', 'is', null), eb(sql`${requests} + 1`, '<=', eb.ref('requests_per_minute'))]),
        )
        .where((eb) =>
          eb.or([
            eb('tokens_per_minute', 'is', null),
            eb(sql`${tokens} + ${r.tokens}`, '<=', eb.ref('tokens_per_minute')),
          ]),
        )
        .executeTakeFirst();
      if (resource.numUpdatedRows === 0n) {
        // Undo the key's part: throwing rolls the transaction back.
        throw REFUSED_BY_RESOURCE;
      }
      return 'reserved';
    })
    .catch((error: unknown) => {
      if (error === REFUSED_BY_RESOURCE) return 'resource' as const;
      throw error;
    });
}

const REFUSED_BY_RESOURCE = new Error('refused by the resource');

/**
 * Replaces a reservation by the actual use: the differences are added to the key's period (unless that
 * period is over) and to the resource's credits and minute (unless that minute is over).
 */
export async function settle(
  db: Kysely<InferenceDatabase>,
  r: Reservation,
  actualTokens: number,
  actualCredits: number,
): Promise<void> {
  const tokenDelta = actualTokens - r.tokens;
  const creditDelta = actualCredits - r.credits;
  if (tokenDelta !== 0) {
    await db
      .updateTable('api_key')
      .set({ period_used: sql`period_used + ${tokenDelta}` })
      .where('id', '=', r.keyId)
      .where('period_start', '=', r.periodStart)
      .execute();
  }
  if (tokenDelta !== 0 || creditDelta !== 0) {
    await db
      .updateTable('inference_resource')
      .set({
        credits_used: sql`credits_used + ${creditDelta}`,
        window_tokens: sql`case when window_minute = ${r.minute} then window_tokens + ${tokenDelta} else window_tokens end`,
      })
      .where('id', '=', r.resourceId)
      .execute();
  }
}
