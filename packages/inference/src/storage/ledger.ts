import { dialectOf } from '@atrium/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
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
 * The two conditional increments of a reservation. Each row's counters are tested and incremented in the
 * same statement, under the row lock (no check-then-act); a counter of an earlier period or minute counts as
 * zero. The key's also stamps its last use and refuses revoked keys, so a revocation takes effect on every
 * gateway process at once.
 */
function increments(r: Reservation, now: number): { key: RawBuilder<unknown>; resource: RawBuilder<unknown> } {
  const used = sql`case when period_start >= ${r.periodStart} then period_used else 0 end`;
  const requests = sql`case when window_minute = ${r.minute} then window_requests else 0 end`;
  const tokens = sql`case when window_minute = ${r.minute} then window_tokens else 0 end`;
  return {
    key: sql`update api_key set
        period_used = ${used} + ${r.tokens},
        period_start = case when period_start >= ${r.periodStart} then period_start else ${r.periodStart} end,
        last_used = ${now}
      where id = ${r.keyId} and revoked is null
        and (budget_tokens is null or ${used} + ${r.tokens} <= budget_tokens)`,
    resource: sql`update inference_resource set
        credits_used = credits_used + ${r.credits},
        window_requests = ${requests} + 1,
        window_tokens = ${tokens} + ${r.tokens},
        window_minute = ${r.minute}
      where id = ${r.resourceId}
        and credits_used + ${r.credits} <= credits_total
        and (requests_per_minute is null or ${requests} + 1 <= requests_per_minute)
        and (tokens_per_minute is null or ${tokens} + ${r.tokens} <= tokens_per_minute)`,
  };
}

/** Gives the key's part of a reservation back (after the resource refused it). */
const refundKey = (db: Kysely<InferenceDatabase>, r: Reservation) =>
  sql`update api_key set period_used = period_used - ${r.tokens}
      where id = ${r.keyId} and period_start = ${r.periodStart}`.execute(db);

const changed = (result: { numAffectedRows?: bigint }) => (result.numAffectedRows ?? 0n) > 0n;

/**
 * Reserves tokens against the key's period budget and credits, one request and tokens against the
 * resource's per-minute limits. PostgreSQL: one statement (both UPDATEs in a CTE, the resource's only if
 * the key's passed), so row locks are held for one round trip only; SQLite (one writer): one transaction.
 */
export async function reserve(db: Kysely<InferenceDatabase>, r: Reservation, now: number): Promise<ReserveOutcome> {
  const { key, resource } = increments(r, now);
  if (dialectOf(db as Kysely<unknown>) === 'postgres') {
    const { rows } = await sql<{ key: number; resource: number }>`
      with k as (${key} returning 1),
      r as (${resource} and exists (select 1 from k) returning 1)
      select (select count(*) from k) as key, (select count(*) from r) as resource`.execute(db);
    const outcome = rows[0];
    if (!outcome || Number(outcome.key) === 0) return 'key';
    if (Number(outcome.resource) > 0) return 'reserved';
    await refundKey(db, r);
    return 'resource';
  }
  return db.transaction().execute(async (trx) => {
    if (!changed(await key.execute(trx))) return 'key';
    if (changed(await resource.execute(trx))) return 'reserved';
    await refundKey(trx, r);
    return 'resource';
  });
}

/** Corrections of reservations to actual use, summed per key period and per resource minute. */
export interface Settlements {
  keys: Map<string, { keyId: string; periodStart: number; tokens: number }>;
  resources: Map<string, { resourceId: string; minute: number; tokens: number; credits: number }>;
}

/**
 * Applies settlements: each difference goes to the key's period (unless that period is over) and to the
 * resource's credits and minute (unless that minute is over). One statement per row, each locking one row,
 * so nothing waits for a lock while holding another.
 */
export async function applySettlements(db: Kysely<InferenceDatabase>, s: Settlements): Promise<void> {
  for (const k of s.keys.values()) {
    if (k.tokens === 0) continue;
    await sql`update api_key set period_used = period_used + ${k.tokens}
        where id = ${k.keyId} and period_start = ${k.periodStart}`.execute(db);
  }
  for (const r of s.resources.values()) {
    if (r.tokens === 0 && r.credits === 0) continue;
    await sql`update inference_resource set
          credits_used = credits_used + ${r.credits},
          window_tokens = case when window_minute = ${r.minute} then window_tokens + ${r.tokens} else window_tokens end
        where id = ${r.resourceId}`.execute(db);
  }
}
