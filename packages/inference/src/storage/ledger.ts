import { type Kysely, sql } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/** What a key had left in its period after a lease: `budget - used`, unbounded without a budget. */
export interface KeyHeadroom {
  tokens: number;
}

/**
 * Reserves `tokens` of a key's period budget for this process: tested and added in one statement, under
 * the row lock (no check-then-act); a counter of an earlier period counts as zero. Revoked keys get
 * nothing, so a revocation reaches every gateway process at its next lease. Undefined: refused.
 */
export async function leaseKeyTokens(
  db: Kysely<InferenceDatabase>,
  keyId: string,
  periodStart: number,
  tokens: number,
  now: number,
): Promise<KeyHeadroom | undefined> {
  const used = sql`case when period_start >= ${periodStart} then period_used else 0 end`;
  const { rows } = await sql<{ budget_tokens: number | null; period_used: number }>`
    update api_key set
        period_used = ${used} + ${tokens},
        period_start = case when period_start >= ${periodStart} then period_start else ${periodStart} end,
        last_used = ${now}
      where id = ${keyId} and revoked is null
        and (budget_tokens is null or ${used} + ${tokens} <= budget_tokens)
      returning budget_tokens, period_used`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    tokens: row.budget_tokens === null ? Number.POSITIVE_INFINITY : row.budget_tokens - row.period_used,
  };
}

/** Gives back what a lease of a key's period did not use (negative: used more than reserved). */
export async function releaseKeyTokens(
  db: Kysely<InferenceDatabase>,
  keyId: string,
  periodStart: number,
  tokens: number,
  lastUse: number,
): Promise<void> {
  await sql`update api_key set
        period_used = period_used - ${tokens},
        last_used = case when last_used is null or last_used < ${lastUse} then ${lastUse} else last_used end
      where id = ${keyId} and period_start = ${periodStart}`.execute(db);
}

/** A resource's credits and its per-minute requests and tokens, in this order everywhere below. */
export type ResourceAmounts = readonly [credits: number, requests: number, tokens: number];

/** What a resource had left after a lease, and its limits (null: none). */
export interface ResourceHeadroom {
  left: ResourceAmounts;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  concurrentRequests: number | null;
}

/**
 * Reserves credits and, in `minute`, requests and tokens of a resource for this process: one conditional
 * statement against its credits and per-minute limits. Undefined: refused.
 */
export async function leaseResource(
  db: Kysely<InferenceDatabase>,
  resourceId: string,
  minute: number,
  [credits, requests, tokens]: ResourceAmounts,
): Promise<ResourceHeadroom | undefined> {
  // A lease computed just before the minute turned counts in the newer minute the row may already have.
  const windowRequests = sql`case when window_minute >= ${minute} then window_requests else 0 end`;
  const windowTokens = sql`case when window_minute >= ${minute} then window_tokens else 0 end`;
  const { rows } = await sql<{
    credits_left: number;
    window_requests: number;
    window_tokens: number;
    requests_per_minute: number | null;
    tokens_per_minute: number | null;
    concurrent_requests: number | null;
  }>`
    update inference_resource set
        credits_used = credits_used + ${credits},
        window_requests = ${windowRequests} + ${requests},
        window_tokens = ${windowTokens} + ${tokens},
        window_minute = case when window_minute >= ${minute} then window_minute else ${minute} end
      where id = ${resourceId}
        and credits_used + ${credits} <= credits_total
        and (requests_per_minute is null or ${windowRequests} + ${requests} <= requests_per_minute)
        and (tokens_per_minute is null or ${windowTokens} + ${tokens} <= tokens_per_minute)
      returning credits_total - credits_used as credits_left, window_requests, window_tokens,
        requests_per_minute, tokens_per_minute, concurrent_requests`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const left = (limit: number | null, used: number) => (limit === null ? Number.POSITIVE_INFINITY : limit - used);
  return {
    left: [
      row.credits_left,
      left(row.requests_per_minute, row.window_requests),
      left(row.tokens_per_minute, row.window_tokens),
    ],
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
    concurrentRequests: row.concurrent_requests,
  };
}

/** Gives back what a lease of a resource did not use; the per-minute part only while its minute lasts. */
export async function releaseResource(
  db: Kysely<InferenceDatabase>,
  resourceId: string,
  minute: number,
  [credits, requests, tokens]: ResourceAmounts,
): Promise<void> {
  await sql`update inference_resource set
        credits_used = credits_used - ${credits},
        window_requests = case when window_minute = ${minute} then window_requests - ${requests} else window_requests end,
        window_tokens = case when window_minute = ${minute} then window_tokens - ${tokens} else window_tokens end
      where id = ${resourceId}`.execute(db);
}
