import { mkdirSync } from 'node:fs';
import { type Logger, RepeatingFailureLog } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { InferenceDatabase } from '../storage/schema.js';
import { addJournalledUsage, dropJournalMark } from '../storage/usage.js';
import { type ServedEntry, UsageJournal } from '../storage/usage-journal.js';

/**
 * How long a settled request waits for others before they are journalled together: one SQLite transaction
 * per window instead of one per request at a paced rate. A kill -9 loses the requests of the last window.
 */
export const JOURNAL_WINDOW_MS = 50;

/**
 * Records each settled request in this process's local journal (see `usage-journal.ts`), in one write per
 * `JOURNAL_WINDOW_MS`, and adds the journal to the database's key × model × hour counters in one batch per
 * interval (and on close). At start, and every `orphanScanMs`, the journals of processes that died on
 * this data directory are added too, so the history holds every request whose response ended before the
 * last window, kill -9 or not. Nothing about a request but these counts is kept.
 */
export class UsageRecorder {
  private readonly journal: UsageJournal;
  private readonly timer: NodeJS.Timeout;
  private readonly orphanTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Settled in the current window, journalled at its end. */
  private settled: ServedEntry[] = [];
  /** The last journal entry the database has. */
  private flushed = 0;
  private readonly flushFailures: RepeatingFailureLog;

  /** `journalDir`: where journals live (created if its parent exists); without it, nothing survives a crash. */
  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly logger: Logger,
    intervalMs = 1_000,
    private readonly journalDir?: string,
    orphanScanMs = 60_000,
  ) {
    this.journal = UsageJournal.create(journalDir);
    this.flushFailures = new RepeatingFailureLog(logger, {
      failed: 'usage flush failed; retrying',
      recovered: 'usage flushes work again',
    });
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
    if (journalDir !== undefined) {
      this.orphanTimer = setInterval(() => void this.addOrphans(), orphanScanMs);
      this.orphanTimer.unref();
    }
  }

  /** A recorder journalling under `dir`, after adding what dead processes left there; in memory if `dir` cannot be made. */
  static async open(db: Kysely<InferenceDatabase>, logger: Logger, dir: string | undefined): Promise<UsageRecorder> {
    let journalDir = dir;
    if (dir !== undefined) {
      try {
        mkdirSync(dir, { recursive: false });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          logger.warn({ err: error }, 'no usage journal: usage of the last second before a crash would be lost');
          journalDir = undefined;
        }
      }
    }
    const recorder = new UsageRecorder(db, logger, 1_000, journalDir);
    await recorder.addOrphans();
    return recorder;
  }

  record(keyId: string, model: string, at: number, promptTokens: number, completionTokens: number, credits: number) {
    if (this.settled.push([keyId, model, at, promptTokens, completionTokens, credits]) === 1)
      setTimeout(this.journalSettled, JOURNAL_WINDOW_MS);
  }

  private readonly journalSettled = () => {
    if (this.settled.length === 0) return;
    const entries = this.settled;
    this.settled = [];
    try {
      this.journal.append(entries);
    } catch (error) {
      this.logger.error(
        { err: error, requests: entries.length },
        'journalling usage failed; these requests are not in the usage history',
      );
    }
  };

  /** Adds the journal to the database, batch by batch; what fails stays in the journal for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      this.journalSettled();
      try {
        while (this.journal.latest() > this.flushed) {
          this.flushed = await addJournalledUsage(this.db, this.journal.id, (mark) => this.journal.after(mark));
          this.journal.forget(this.flushed);
        }
        this.flushFailures.succeeded();
      } catch (error) {
        this.flushFailures.failed(error);
      }
    });
    return this.flushing;
  }

  /** Adds and removes the journals of dead processes in the journal directory. */
  private async addOrphans(): Promise<void> {
    if (this.journalDir === undefined) return;
    try {
      for (const orphan of UsageJournal.orphans(this.journalDir, Date.now())) {
        try {
          for (let mark = -1, through = 0; through > mark; ) {
            mark = through;
            through = await addJournalledUsage(this.db, orphan.id, (stored) => orphan.after(stored));
          }
        } catch (error) {
          orphan.close(false);
          throw error;
        }
        orphan.close(true);
        await dropJournalMark(this.db, orphan.id);
        this.logger.info({ journal: orphan.id }, 'added the usage journal of a stopped process');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'adding usage journals of stopped processes failed; retrying later');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.orphanTimer);
    await this.flush();
    const complete = this.journal.latest() === 0;
    this.journal.close(complete);
    if (complete) await dropJournalMark(this.db, this.journal.id);
  }
}
