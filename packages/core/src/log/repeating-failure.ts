import type { Logger } from './logger.js';

export interface RepeatingFailureMessages {
  /** Logged when the work fails, e.g. `giving a lease back failed; retrying at the next sweep`. */
  failed: string;
  /** Logged (at info) when it works again after failing, e.g. `giving leases back works again`. */
  recovered: string;
}

export interface RepeatingFailureOptions {
  /** While the failure repeats, at most one line per this long (default 60 s). */
  intervalMs?: number;
  level?: 'warn' | 'error';
  clock?: () => number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The log of work a loop retries (a sweep, a flush, a poll) that fails again and again while, say, the
 * database is down: the first failure of an episode with its error and stack, then at most one line per
 * interval with the number of failures since the last line and the latest error's message (no stack), and a
 * line when the work succeeds again.
 */
export class RepeatingFailureLog {
  /** Failures since the episode began; 0: the work is succeeding. */
  private failures = 0;
  /** Failures since the last line. */
  private unlogged = 0;
  private firstAt = 0;
  private lastLineAt = 0;
  private readonly intervalMs: number;
  private readonly level: 'warn' | 'error';
  private readonly clock: () => number;

  constructor(
    private readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>,
    private readonly messages: RepeatingFailureMessages,
    options: RepeatingFailureOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.level = options.level ?? 'warn';
    this.clock = options.clock ?? Date.now;
  }

  failed(error: unknown): void {
    const now = this.clock();
    if (this.failures++ === 0) {
      this.firstAt = now;
      this.lastLineAt = now;
      this.logger[this.level]({ err: error }, this.messages.failed);
      return;
    }
    this.unlogged++;
    if (now - this.lastLineAt < this.intervalMs) return;
    this.logger[this.level](
      { error: messageOf(error), repeats: this.unlogged, failingForMs: now - this.firstAt },
      this.messages.failed,
    );
    this.unlogged = 0;
    this.lastLineAt = now;
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.logger.info({ failures: this.failures, failingForMs: this.clock() - this.firstAt }, this.messages.recovered);
    this.failures = 0;
    this.unlogged = 0;
  }
}
