import { randomUUID } from 'node:crypto';
import { type Logger, RepeatingFailureLog } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { InferenceDatabase } from '../storage/schema.js';
import { leaseSlots, renewSlots } from '../storage/slot-leases.js';

/** A lease counts this long after its last renewal; a process that died frees its slots after it. */
const LEASE_TTL_MS = 15_000;
const RENEW_AFTER_MS = 5_000;
/** Slots held beyond the requests running are given back after this long. */
const SHRINK_AFTER_MS = 1_000;

interface ResourceSlots {
  running: number;
  leased: number;
  lastWrite: number;
  /** The database write under way; writes of one resource never overlap. */
  writing: Promise<unknown> | undefined;
}

/**
 * A resource's concurrency limit across every gateway process: each process leases slots in the database
 * (one more than it runs, when the limit has room) and runs requests on them without a database visit.
 */
export class ConcurrencySlots {
  private readonly holder = randomUUID();
  private readonly resources = new Map<string, ResourceSlots>();
  private readonly renewFailures: RepeatingFailureLog;

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    logger: Logger,
    private readonly clock: () => number,
  ) {
    this.renewFailures = new RepeatingFailureLog(logger, {
      failed: 'renewing concurrency slots failed',
      recovered: 'renewing concurrency slots works again',
    });
  }

  private slotsOf(resourceId: string): ResourceSlots {
    let slots = this.resources.get(resourceId);
    if (!slots) {
      slots = { running: 0, leased: 0, lastWrite: 0, writing: undefined };
      this.resources.set(resourceId, slots);
    }
    return slots;
  }

  /** Starts a request on the resource if a slot is free in this process or can be leased; false otherwise. */
  async acquire(resourceId: string): Promise<boolean> {
    const slots = this.slotsOf(resourceId);
    while (slots.writing) await slots.writing.catch(() => undefined);
    if (slots.running < slots.leased) {
      slots.running++;
      return true;
    }
    const write = this.lease(resourceId, slots);
    slots.writing = write;
    try {
      if (!(await write)) return false;
      slots.running++;
      return true;
    } finally {
      slots.writing = undefined;
    }
  }

  private async lease(resourceId: string, slots: ResourceSlots): Promise<boolean> {
    const now = this.clock();
    for (const wanted of [slots.running + 2, slots.running + 1]) {
      if (await leaseSlots(this.db, resourceId, this.holder, wanted, now, now + LEASE_TTL_MS)) {
        slots.leased = wanted;
        slots.lastWrite = now;
        return true;
      }
    }
    return false;
  }

  release(resourceId: string): void {
    const slots = this.resources.get(resourceId);
    if (slots) slots.running = Math.max(0, slots.running - 1);
  }

  /** Gives back slots held beyond the running requests and renews the rest; `all`: shrink now, whatever their age. */
  async sweep(all: boolean): Promise<void> {
    if (all) await Promise.all([...this.resources.values()].map((slots) => slots.writing?.catch(() => undefined)));
    const now = this.clock();
    const writes: Promise<unknown>[] = [];
    for (const [resourceId, slots] of this.resources) {
      if (slots.writing) continue;
      const shrink = slots.leased > slots.running && (all || now - slots.lastWrite >= SHRINK_AFTER_MS);
      const renew = slots.leased > 0 && now - slots.lastWrite >= RENEW_AFTER_MS;
      if (!shrink && !renew) {
        if (slots.leased === 0 && slots.running === 0) this.resources.delete(resourceId);
        continue;
      }
      const target = slots.running;
      const write = renewSlots(this.db, resourceId, this.holder, target, now + LEASE_TTL_MS).then(
        () => {
          slots.leased = target;
          slots.lastWrite = now;
          this.renewFailures.succeeded();
        },
        (error: unknown) => this.renewFailures.failed(error),
      );
      slots.writing = write;
      writes.push(
        write.finally(() => {
          slots.writing = undefined;
        }),
      );
    }
    await Promise.all(writes);
  }
}
