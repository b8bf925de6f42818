import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import { keyRateWindow, leaseKeyRate, releaseKeyRate } from '../storage/key-rate-ledger.js';
import type { InferenceDatabase } from '../storage/schema.js';
import type { ActiveKey } from './active-key.js';
import { LeasedCounters } from './leased-counters.js';

const MINUTE_MS = 60_000;

/**
 * A key's own requests-per-minute and tokens-per-minute limits, leased like the resource's (see
 * `leased-counters.ts`): the counters of all processes together never pass a limit. Keys without limits are
 * not counted at all.
 */
export class KeyRates {
  private readonly counters: LeasedCounters;

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    logger: Logger,
    clock: () => number,
  ) {
    this.counters = new LeasedCounters(
      [true, true],
      {
        lease: (id, minute, [requests = 0, tokens = 0]) => leaseKeyRate(db, id, minute, [requests, tokens]),
        release: (id, minute, [requests = 0, tokens = 0]) => releaseKeyRate(db, id, minute, [requests, tokens]),
      },
      logger,
      clock,
    );
  }

  static limits(key: ActiveKey): boolean {
    return key.requestsPerMinute !== null || key.tokensPerMinute !== null;
  }

  /** Takes one request and `tokens` in `minute`; false when a limit of the key refuses it. */
  acquire(key: ActiveKey, minute: number, tokens: number): Promise<boolean> {
    return this.counters.acquire(key.id, minute, [1, tokens]);
  }

  /** Gives back tokens a request reserved and did not use. */
  give(keyId: string, minute: number, tokens: number): void {
    this.counters.give(keyId, minute, [0, tokens]);
  }

  sweep(all: boolean): Promise<void> {
    return this.counters.sweep(all);
  }

  release(keyId: string): Promise<void> {
    return this.counters.release(keyId);
  }

  /** Why `key` was refused in `minute`: which of its limits, with an honest wait (the minute's end). */
  async refusal(
    key: ActiveKey,
    minute: number,
    tokens: number,
    now: number,
  ): Promise<{ message: string; headers: Record<string, string> }> {
    const row = await keyRateWindow(this.db, key.id);
    const current = row?.window_minute === minute;
    const wait = String(Math.max(1, Math.ceil((minute + MINUTE_MS - now) / 1000)));
    const rpm = key.requestsPerMinute;
    const used = current ? Number(row?.window_requests ?? 0) : 0;
    if (rpm !== null && used + 1 > rpm)
      return {
        message: `Rate limit reached on requests per minute (RPM) for this API key: limit ${rpm}, used ${used}. Please try again in ${wait}s.`,
        headers: { 'retry-after': wait },
      };
    const tpm = key.tokensPerMinute ?? 0;
    const usedTokens = current ? Number(row?.window_tokens ?? 0) : 0;
    return tokens > tpm
      ? {
          message: `This request reserves ${tokens} tokens, more than this API key's limit of ${tpm} tokens per minute (TPM). Lower max_tokens (or n), or ask for a higher limit.`,
          headers: { 'x-should-retry': 'false' },
        }
      : {
          message: `Rate limit reached on tokens per minute (TPM) for this API key: limit ${tpm}, used ${usedTokens}, requested ${tokens}. Please try again in ${wait}s.`,
          headers: { 'retry-after': wait },
        };
  }
}
