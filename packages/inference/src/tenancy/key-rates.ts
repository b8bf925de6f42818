import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import { keyRateWindow, leaseKeyRate, releaseKeyRate } from '../storage/key-rate-ledger.js';
import type { InferenceDatabase } from '../storage/schema.js';
import type { ActiveKey } from './active-key.js';
import { LeasedCounters } from './leased-counters.js';
import type { MinuteState } from './refusals.js';

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

  /** Takes one request and `tokens` in `minute` from this process's lease; false when a limit of the key refuses it. */
  acquire(keyId: string, minute: number, tokens: number): Promise<boolean> {
    return this.counters.acquire(keyId, minute, [1, tokens]);
  }

  /** Takes one request and `tokens` in `minute` from the database directly, all of it or nothing. */
  reserve(keyId: string, minute: number, tokens: number): Promise<boolean> {
    return this.counters.reserve(keyId, minute, [1, tokens]);
  }

  mayFit(keyId: string, minute: number, tokens: number): boolean {
    return this.counters.mayFit(keyId, minute, [1, tokens]);
  }

  /** Gives back tokens (and requests) a request took and did not use. */
  give(keyId: string, minute: number, tokens: number, requests = 0): void {
    this.counters.give(keyId, minute, [requests, tokens]);
  }

  sweep(all: boolean): Promise<void> {
    return this.counters.sweep(all);
  }

  release(keyId: string): Promise<void> {
    return this.counters.release(keyId);
  }

  /** What the key's limits and the requests counted in `minute` are, in the database and not held by this process. */
  async minuteState(key: ActiveKey, minute: number): Promise<MinuteState> {
    const row = await keyRateWindow(this.db, key.id);
    const current = row !== undefined && Number(row.window_minute) >= minute;
    const [heldRequests = 0, heldTokens = 0] = this.counters.held(key.id, minute);
    return {
      requestsPerMinute: key.requestsPerMinute,
      tokensPerMinute: key.tokensPerMinute,
      requestsUsed: (current ? Number(row.window_requests) : 0) - heldRequests,
      tokensUsed: (current ? Number(row.window_tokens) : 0) - heldTokens,
      nextMinute: minute + MINUTE_MS,
    };
  }
}
