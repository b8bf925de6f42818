import type { EventEmitter } from 'node:events';
import { Pool } from 'undici';
import type { RoutingConfig } from '../config.js';
import type { ReplicaLoad } from './balancer.js';
import type { ConnectionWaits } from './connection-waits.js';

/** A replica's waiting requests log at most one line per this interval (an episode, not each request). */
const EPISODE_LOG_MS = 60_000;

/** One model server: its keep-alive connection pool, in-flight count and health. */
export class Replica implements ReplicaLoad {
  /** Requests holding one of the replica's connections. */
  private active = 0;
  /** Requests waiting for a connection, first come first served. */
  private readonly queue: Array<() => void> = [];
  private lastEpisode = Number.NEGATIVE_INFINITY;
  ejectedUntil = 0;
  private consecutiveFailures = 0;
  private pool: Pool | undefined;
  private current: string | undefined;

  constructor(
    origin: string | undefined,
    private readonly routing: RoutingConfig,
    private readonly waits: ConnectionWaits,
  ) {
    this.setOrigin(origin);
  }

  get outstanding(): number {
    return this.active + this.queue.length;
  }

  /**
   * Takes one of the replica's `connectionsPerReplica` connections, waiting for one at most
   * `connectionWaitMs`: false when none came free in time. Rejects when `signal` aborts the wait.
   */
  enter(signal: EventEmitter & { readonly aborted: boolean }): Promise<boolean> {
    if (this.active < this.routing.connectionsPerReplica) {
      this.active++;
      return Promise.resolve(true);
    }
    const now = Date.now();
    if (this.queue.length === 0 && now - this.lastEpisode > EPISODE_LOG_MS) {
      this.lastEpisode = now;
      this.waits.episode(this.current ?? '(restarting)', this.routing.connectionsPerReplica);
    }
    this.waits.waits++;
    this.waits.waiting++;
    return new Promise<boolean>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.off('abort', aborted);
        this.waits.waiting--;
        const index = this.queue.indexOf(admit);
        if (index >= 0) this.queue.splice(index, 1);
      };
      const admit = () => {
        done();
        this.active++;
        resolve(true);
      };
      const aborted = () => {
        done();
        reject(new Error('the client went away while waiting for a connection'));
      };
      const timer = setTimeout(() => {
        done();
        this.waits.timeouts++;
        resolve(false);
      }, this.routing.connectionWaitMs);
      signal.once('abort', aborted);
      this.queue.push(admit);
    });
  }

  /** Gives a connection back: the longest-waiting request takes it. */
  leave(): void {
    this.active--;
    this.queue[0]?.();
  }

  get origin(): string | undefined {
    return this.current;
  }

  get client(): Pool | undefined {
    return this.pool;
  }

  /** Points the replica at a new address (an engine restarted on another port), or at none. */
  setOrigin(origin: string | undefined): void {
    if (origin === this.current) return;
    void this.pool?.destroy().catch(() => undefined);
    this.current = origin;
    this.pool =
      origin === undefined
        ? undefined
        : new Pool(origin, {
            connections: this.routing.connectionsPerReplica,
            connectTimeout: this.routing.connectTimeoutMs,
            headersTimeout: this.routing.firstByteTimeoutMs,
            bodyTimeout: this.routing.idleTimeoutMs,
            keepAliveTimeout: 30_000,
          });
    this.ejectedUntil = 0;
    this.consecutiveFailures = 0;
  }

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.ejectedUntil = 0;
  }

  /** A refused or broken connection ejects at once; 5xx answers only after `failureThreshold` in a row. */
  failed(kind: 'connection' | 'status', now = Date.now()): void {
    this.consecutiveFailures++;
    if (kind === 'connection' || this.consecutiveFailures >= this.routing.failureThreshold) {
      this.ejectedUntil = now + this.routing.ejectMs;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.current = undefined;
    await pool?.destroy();
  }
}
