import { Pool } from 'undici';
import type { RoutingConfig } from '../config.js';
import type { ReplicaLoad } from './balancer.js';

/** One model server: its keep-alive connection pool, in-flight count and health. */
export class Replica implements ReplicaLoad {
  outstanding = 0;
  ejectedUntil = 0;
  private consecutiveFailures = 0;
  private pool: Pool | undefined;
  private current: string | undefined;

  constructor(
    origin: string | undefined,
    private readonly routing: RoutingConfig,
  ) {
    this.setOrigin(origin);
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
