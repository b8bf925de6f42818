import type { Database } from '@atrium/core';
import type { BenchConfig } from '../config.js';
import type { BenchMail } from '../mail/outbox.js';
import type { BenchDatabase } from '../storage/schema.js';
import type { PerfRenderer } from '../workers/perf-threads.js';

/** What every route of the bench service shares. */
export interface BenchContext {
  database: Database<BenchDatabase>;
  config: BenchConfig;
  /** The HS256 secret (configured, or the one kept in the data directory). */
  jwtSecret: string;
  dataDir: string;
  /** Confirmation links and invitations: to SMTP when configured, else to the outbox. */
  mail: BenchMail;
  /** Perf queries, answered in worker threads. */
  perf: PerfRenderer;
  /** The console's URL without a trailing slash (see `consoleUrlOf`). */
  consoleUrl: () => string;
}
