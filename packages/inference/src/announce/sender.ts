import { DeliveryRounds, type Logger, RepeatingFailureLog } from '@atrium/core';
import type { Kysely } from 'kysely';
import {
  claimDelivery,
  type DueDelivery,
  dueDeliveries,
  markDelivered,
  markDeliveryFailed,
} from '../storage/announcement-deliveries.js';
import type { InferenceDatabase } from '../storage/schema.js';
import type { AnnounceConfig } from './channel-config.js';
import type { Channel } from './channels.js';
import { DeliveryError, deliver } from './deliver.js';

/** Attempts in progress at once, over all channels. */
const MAX_IN_FLIGHT = 20;

/**
 * Posts pending announcements to the configured chat channels in the background, as the outbox mailer sends
 * emails: each delivery is claimed (so several processes on one database post it once), posted, and marked sent
 * or failed; a failure is retried with a doubling delay up to `attempts` times, except a permanent refusal.
 * A round only starts attempts and does not wait for them, so a channel that hangs until its timeout holds up no
 * other channel's posts or retries. A process posts only to the channels it is configured with: while gateway
 * processes on one database differ (a rolling restart), a delivery waits for one that knows its channel.
 * Secrets are never logged.
 */
export class ChannelSender {
  private readonly channels: ReadonlyMap<string, Channel>;
  private readonly leaseMs: number;
  private readonly rounds: DeliveryRounds;
  private readonly inFlight = new Set<Promise<void>>();
  /** Aborts the attempts in progress on close; their leases run out and another process (or start) retries them. */
  private readonly stop = new AbortController();

  /** `channels`: the configured ones with their secrets read (`resolveChannels`). */
  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    channels: readonly Channel[],
    private readonly config: AnnounceConfig,
    private readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>,
    private readonly clock: () => number = Date.now,
  ) {
    this.channels = new Map(channels.map((c) => [c.name, c]));
    // An attempt in progress keeps its delivery from the other processes well past its own time limit.
    this.leaseMs = Math.max(60_000, config.timeoutMs * 4);
    const roundFailures = new RepeatingFailureLog(logger, {
      failed: 'looking for announcement channel deliveries failed',
      recovered: 'looking for announcement channel deliveries works again',
    });
    this.rounds = new DeliveryRounds(
      () => this.deliverDue().then(() => roundFailures.succeeded()),
      (error) => roundFailures.failed(error),
    );
  }

  /** The names of the configured channels, in configuration order: each announcement gets one delivery per name. */
  get channelNames(): string[] {
    return [...this.channels.keys()];
  }

  /** Posts what is pending now, then looks again every `pollIntervalMs`. */
  start(): void {
    if (this.channels.size > 0) this.rounds.start(this.config.pollIntervalMs);
  }

  /** Starts a delivery round (or another one right after the running one) without waiting for it. */
  kick(): void {
    if (this.channels.size > 0) this.rounds.kick();
  }

  async close(): Promise<void> {
    const closing = this.rounds.close();
    this.stop.abort();
    await closing;
    await Promise.all(this.inFlight);
  }

  /** Claims what is due, up to the in-flight limit, and starts each attempt; an attempt that ends starts a round. */
  private async deliverDue(): Promise<void> {
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    if (room <= 0) return;
    const due = await dueDeliveries(this.db, this.channelNames, this.clock(), room);
    for (const delivery of due) {
      if (this.rounds.closed || !(await claimDelivery(this.db, delivery, this.clock() + this.leaseMs))) continue;
      const attempt = this.attempt(delivery)
        .catch((error: unknown) =>
          this.logger.error({ error: (error as Error).message }, 'announcement channel delivery stopped'),
        )
        .finally(() => {
          this.inFlight.delete(attempt);
          this.kick();
        });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const attempt = delivery.attempts + 1;
    const channel = this.channels.get(delivery.channel) as Channel;
    try {
      await deliver(channel, delivery.id, delivery.announcement, { ...this.config, signal: this.stop.signal });
      await markDelivered(this.db, delivery.id, this.clock());
    } catch (error) {
      if (this.rounds.closed) return;
      const reason = error instanceof DeliveryError ? error.message : 'internal error';
      const last = (error instanceof DeliveryError && error.permanent) || attempt >= this.config.attempts;
      const retryAt = last ? undefined : this.clock() + this.config.retryDelayMs * 2 ** (attempt - 1);
      await markDeliveryFailed(this.db, delivery.id, reason, retryAt);
      const fields = { delivery_id: delivery.id, channel: delivery.channel, attempt, error: reason };
      if (last) this.logger.error(fields, 'announcement channel delivery failed');
      else this.logger.warn(fields, 'announcement channel delivery failed; it will be retried');
    }
  }
}
