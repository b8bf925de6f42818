import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import { applySettlements, type Reservation, type Settlements } from '../storage/ledger.js';
import type { InferenceDatabase } from '../storage/schema.js';

const FLUSH_DELAY_MS = 5;

const empty = (): Settlements => ({ keys: new Map(), resources: new Map() });

/**
 * Settles reservations in small batches: under load, many responses finish within a few milliseconds and
 * their corrections to the same key and resource become one UPDATE per row instead of two per request.
 * Delaying a correction is safe: it usually gives tokens back, so until it lands admission is only stricter.
 */
export class SettlementBatcher {
  private pending = empty();
  private scheduled: Promise<void> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly logger: Logger,
  ) {}

  /** Queues the difference between a reservation and the actual use; resolves once it is stored. */
  add(r: Reservation, actualTokens: number, actualCredits: number): Promise<void> {
    const tokens = actualTokens - r.tokens;
    const credits = actualCredits - r.credits;
    const keyId = `${r.keyId}\n${r.periodStart}`;
    const key = this.pending.keys.get(keyId);
    if (key) key.tokens += tokens;
    else this.pending.keys.set(keyId, { keyId: r.keyId, periodStart: r.periodStart, tokens });
    const resourceId = `${r.resourceId}\n${r.minute}`;
    const resource = this.pending.resources.get(resourceId);
    if (resource) {
      resource.tokens += tokens;
      resource.credits += credits;
    } else this.pending.resources.set(resourceId, { resourceId: r.resourceId, minute: r.minute, tokens, credits });
    this.scheduled ??= new Promise<void>((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() => this.flush());
    return this.scheduled;
  }

  private flush(): Promise<void> {
    const batch = this.pending;
    this.pending = empty();
    this.scheduled = undefined;
    this.chain = this.chain.then(() =>
      applySettlements(this.db, batch).catch((error: unknown) =>
        this.logger.error({ err: error, keys: batch.keys.size }, 'settling reservations failed'),
      ),
    );
    return this.chain;
  }

  /** Stores whatever is queued (before the database closes). */
  async drain(): Promise<void> {
    await (this.scheduled ?? this.chain);
  }
}
