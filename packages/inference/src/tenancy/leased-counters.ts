import { type Logger, RepeatingFailureLog } from '@atrium/core';
import { Lease } from './lease.js';

/** The database side of a family of leases (keys' budgets, resources' credits and limits). */
export interface LeaseStore {
  /** Reserves `amounts` atomically; what is left after it, or undefined when refused. */
  lease(id: string, window: number, amounts: readonly number[], now: number): Promise<readonly number[] | undefined>;
  /** Gives back what a lease did not use. */
  release(id: string, window: number, amounts: readonly number[], lastUse: number): Promise<void>;
}

/**
 * Leases older than this go back to the database at the next sweep (every 250 ms, see `admission.ts`), so a
 * revocation or a limit changed elsewhere applies within a second.
 */
const MAX_LEASE_AGE_MS = 700;
/** Leases unused this long are forgotten. */
const IDLE_MS = 60_000;
/** Rounds of waiting for shared refills before a request reserves its own need directly. */
const SHARED_ROUNDS = 4;

/**
 * Per-process leases over database counters (see `lease.ts`). A request takes what it needs from its lease
 * without a database visit; a short lease is refilled by one conditional statement that requests waiting
 * on the same lease share, and refilled ahead of need when it runs low. When a refill is refused, a
 * request still gets exactly what it needs if the database has that much.
 */
export class LeasedCounters {
  private readonly leases = new Map<string, Lease>();
  /** Give-backs under way: a full sweep waits for them too. */
  private readonly releasing = new Set<Promise<void>>();
  /** While the database is down, each sweep fails again: logged once, then once a minute with a count. */
  private readonly releaseFailures: RepeatingFailureLog;
  private readonly refillFailures: RepeatingFailureLog;

  constructor(
    private readonly windowed: readonly boolean[],
    private readonly store: LeaseStore,
    logger: Logger,
    private readonly clock: () => number,
  ) {
    this.releaseFailures = new RepeatingFailureLog(logger, {
      failed: 'giving a lease back failed; retrying at the next sweep',
      recovered: 'giving leases back works again',
    });
    this.refillFailures = new RepeatingFailureLog(logger, {
      failed: 'refilling a lease ahead of need failed',
      recovered: 'refilling leases ahead of need works again',
    });
  }

  get(id: string): Lease | undefined {
    return this.leases.get(id);
  }

  /** What this process holds of `id` for `window` (windowed amounts of another window count as nothing). */
  held(id: string, window: number): number[] {
    const lease = this.leases.get(id);
    return this.windowed.map((isWindowed, i) =>
      !lease || (isWindowed && lease.currentWindow !== window) ? 0 : (lease.held[i] ?? 0),
    );
  }

  private leaseOf(id: string): Lease {
    let lease = this.leases.get(id);
    if (!lease) {
      lease = new Lease(this.windowed);
      this.leases.set(id, lease);
    }
    return lease;
  }

  /** Takes `need` in `window`, from the lease or else from the database; false when the database refuses. */
  async acquire(id: string, window: number, need: readonly number[]): Promise<boolean> {
    const lease = this.leaseOf(id);
    for (let round = 0; round < SHARED_ROUNDS; round++) {
      if (lease.take(window, need, this.clock())) {
        if (lease.low && !lease.refilling) lease.refilling = this.refillAhead(id, lease, window, need);
        return true;
      }
      lease.refilling ??= this.refill(id, lease, window, need);
      if (!(await lease.refilling)) break;
    }
    // Refused: what this process holds goes back first, so only what other processes hold can be missing.
    await this.giveBack(id, lease);
    return (await this.store.lease(id, window, need, this.clock())) !== undefined;
  }

  /**
   * Whether `need` may fit: false only when what this process holds and what the database had left at its
   * last refill are both known and together short of it.
   */
  mayFit(id: string, window: number, need: readonly number[]): boolean {
    const lease = this.leases.get(id);
    if (!lease || lease.currentWindow !== window) return true;
    return need.every((n, i) => (lease.held[i] ?? 0) + (lease.headroom[i] ?? Number.POSITIVE_INFINITY) >= n);
  }

  /** Reserves `need` in the database directly, past the lease (a request fitted to what was read there). */
  async reserve(id: string, window: number, need: readonly number[]): Promise<boolean> {
    const now = this.clock();
    const reserved = (await this.store.lease(id, window, need, now)) !== undefined;
    // What the request gives back goes to this lease, so it must know the window.
    if (reserved) this.leaseOf(id).used(window, now);
    return reserved;
  }

  /** Puts back what a request did not use (see `Lease.give`); to the database at once when the lease is hoarding. */
  give(id: string, window: number, amounts: readonly number[]): void {
    const lease = this.leaseOf(id);
    lease.give(window, amounts);
    if (lease.hoarding && !lease.refilling) void this.giveBack(id, lease);
  }

  private async refill(id: string, lease: Lease, window: number, need: readonly number[]): Promise<boolean> {
    try {
      const now = this.clock();
      const chunk = lease.chunk(need, now);
      let granted: readonly number[] = chunk;
      let headroom = await this.store.lease(id, window, chunk, now);
      if (!headroom && chunk.some((c, i) => c > (need[i] ?? 0))) {
        granted = need;
        headroom = await this.store.lease(id, window, need, now);
      }
      if (!headroom) return false;
      lease.credit(window, granted, headroom, now);
      return true;
    } finally {
      lease.refilling = undefined;
    }
  }

  private refillAhead(id: string, lease: Lease, window: number, need: readonly number[]): Promise<boolean> {
    return this.refill(id, lease, window, need).then(
      (refilled) => {
        this.refillFailures.succeeded();
        return refilled;
      },
      (error: unknown) => {
        this.refillFailures.failed(error);
        return false;
      },
    );
  }

  /** Gives leases back to the database: those older than a second, or all of them. */
  async sweep(all = false): Promise<void> {
    if (all) await Promise.all([...this.leases.values()].map((lease) => lease.refilling?.catch(() => false)));
    const now = this.clock();
    const releases: Promise<void>[] = [];
    for (const [id, lease] of this.leases) {
      if (!all && now - lease.lastRefill < MAX_LEASE_AGE_MS) continue;
      if (lease.held.some((h) => h !== 0)) releases.push(this.giveBack(id, lease));
      else if (now - lease.lastUse > IDLE_MS && !lease.refilling) this.leases.delete(id);
    }
    if (all) releases.push(...this.releasing);
    await Promise.all(releases);
  }

  /** Gives one lease back now, after any refill under way. */
  async release(id: string): Promise<void> {
    const lease = this.leases.get(id);
    if (!lease) return;
    await lease.refilling?.catch(() => false);
    await Promise.all([...this.releasing, this.giveBack(id, lease)]);
  }

  private giveBack(id: string, lease: Lease): Promise<void> {
    const release = this.storeRelease(id, lease);
    this.releasing.add(release);
    return release.finally(() => this.releasing.delete(release));
  }

  private async storeRelease(id: string, lease: Lease): Promise<void> {
    const held = lease.release();
    if (!held) return;
    try {
      await this.store.release(id, held.window, held.amounts, lease.lastUse);
      this.releaseFailures.succeeded();
    } catch (error) {
      lease.give(held.window, held.amounts);
      this.releaseFailures.failed(error);
    }
  }
}
