import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { InferenceDatabase } from '../storage/schema.js';
import { addUsage, type UsageRow } from '../storage/usage.js';

const HOUR_MS = 3_600_000;

/**
 * Aggregates usage in memory as key × model × hour counters and adds them to the database in one batch
 * per interval (and on close). Nothing about a request but these counts is kept.
 */
export class UsageRecorder {
  private pending = new Map<string, UsageRow>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly logger: Logger,
    intervalMs = 1_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(keyId: string, model: string, at: number, promptTokens: number, completionTokens: number, credits: number) {
    const hour = at - (at % HOUR_MS);
    this.merge({
      key_id: keyId,
      model,
      hour,
      requests: 1,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      credits,
    });
  }

  private merge(row: UsageRow): void {
    const id = `${row.key_id}\n${row.model}\n${row.hour}`;
    const existing = this.pending.get(id);
    if (!existing) {
      this.pending.set(id, row);
      return;
    }
    existing.requests += row.requests;
    existing.prompt_tokens += row.prompt_tokens;
    existing.completion_tokens += row.completion_tokens;
    existing.credits += row.credits;
  }

  /** Writes what has accumulated; a failed batch is merged back and retried at the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await addUsage(this.db, [...batch.values()]);
      } catch (error) {
        this.logger.warn({ err: error, rows: batch.size }, 'usage flush failed; retrying');
        for (const row of batch.values()) this.merge(row);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
