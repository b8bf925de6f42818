import { type Kysely, sql } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/** A key's requests and tokens in one minute, in this order everywhere below. */
export type KeyRateAmounts = readonly [requests: number, tokens: number];

/**
 * Reserves requests and tokens of a key in `minute` for this process: one conditional statement against the
 * key's own per-minute limits, as `leaseResource` does for the resource's. Revoked keys get nothing. Undefined:
 * refused; else what the key has left in the minute (unbounded without a limit).
 */
export async function leaseKeyRate(
  db: Kysely<InferenceDatabase>,
  keyId: string,
  minute: number,
  [requests, tokens]: KeyRateAmounts,
): Promise<KeyRateAmounts | undefined> {
  const windowRequests = sql`case when window_minute >= ${minute} then window_requests else 0 end`;
  const windowTokens = sql`case when window_minute >= ${minute} then window_tokens else 0 end`;
  const { rows } = await sql<{
    window_requests: number;
    window_tokens: number;
    requests_per_minute: number | null;
    tokens_per_minute: number | null;
  }>`
    update api_key set
        window_requests = ${windowRequests} + ${requests},
        window_tokens = ${windowTokens} + ${tokens},
        window_minute = case when window_minute >= ${minute} then window_minute else ${minute} end
      where id = ${keyId} and revoked is null
        and (requests_per_minute is null or ${windowRequests} + ${requests} <= requests_per_minute)
        and (tokens_per_minute is null or ${windowTokens} + ${tokens} <= tokens_per_minute)
      returning window_requests, window_tokens, requests_per_minute, tokens_per_minute`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const left = (limit: number | null, used: number) =>
    limit === null ? Number.POSITIVE_INFINITY : Number(limit) - Number(used);
  return [left(row.requests_per_minute, row.window_requests), left(row.tokens_per_minute, row.window_tokens)];
}

/** Gives back what a lease of a key's minute did not use, while that minute lasts. */
export async function releaseKeyRate(
  db: Kysely<InferenceDatabase>,
  keyId: string,
  minute: number,
  [requests, tokens]: KeyRateAmounts,
): Promise<void> {
  await sql`update api_key set
        window_requests = case when window_minute = ${minute} then window_requests - ${requests} else window_requests end,
        window_tokens = case when window_minute = ${minute} then window_tokens - ${tokens} else window_tokens end
      where id = ${keyId}`.execute(db);
}

/** A key's counters of its current minute, for a refusal's message. */
export const keyRateWindow = (db: Kysely<InferenceDatabase>, keyId: string) =>
  db
    .selectFrom('api_key')
    .select(['window_minute', 'window_requests', 'window_tokens', 'requests_per_minute', 'tokens_per_minute'])
    .where('id', '=', keyId)
    .executeTakeFirst();
