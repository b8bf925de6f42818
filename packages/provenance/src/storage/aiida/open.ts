import { availableParallelism } from 'node:os';
import { openDatabase, parseDatabaseUrl } from '@atrium/core';
import { Kysely } from 'kysely';
import { QueryMemo } from './memo.js';
import type { AiidaDatabase } from './schema.js';
import { SqliteWorkerPool } from './sqlite-pool.js';
import { sqliteWorkerDialect } from './sqlite-worker-dialect.js';

export type AiidaDialect = 'sqlite' | 'postgres';

/** A read-only connection to a database in AiiDA's schema. */
export interface AiidaStore {
  db: Kysely<AiidaDatabase>;
  dialect: AiidaDialect;
  /** Aggregates (totals, type counts, statistics) already computed. */
  memo: QueryMemo;
  /** SQLite cache copies: the FTS5 trigram index over node labels and descriptions exists. */
  nodeText?: boolean;
  close(): Promise<void>;
}

/** How long a live database's aggregates may be served from the memo. */
export const LIVE_MEMO_TTL_MS = 10_000;

/** The default deadline of one statement (`queryTimeoutMs` in the configuration). */
export const QUERY_TIMEOUT_MS = 5_000;

/** Statements that may wait for an archive thread before new ones are refused with 503. */
const MAX_QUEUED_QUERIES = 256;

/**
 * Opens an AiiDA SQLite file read-only (our extracted archive copy: immutable, so aggregates are
 * memoised for good). Statements run on worker threads (at most two, each with its own connection) so
 * that none blocks the event loop, and each is stopped at the deadline. LIKE is made case-sensitive as
 * on PostgreSQL; a bounded page cache keeps the resident set small even on multi-GB archives.
 */
export function openAiidaSqlite(path: string, queryTimeoutMs = QUERY_TIMEOUT_MS, nodeText = false): AiidaStore {
  const pool = new SqliteWorkerPool({
    path,
    pragmas: ['case_sensitive_like = ON', 'cache_size = -32768'],
    size: Math.min(2, availableParallelism()),
    timeoutMs: queryTimeoutMs,
    maxQueued: MAX_QUEUED_QUERIES,
  });
  const db = new Kysely<AiidaDatabase>({ dialect: sqliteWorkerDialect(pool) });
  // Kysely destroys only a driver that ran a query: a store closed unused must still stop its workers.
  const close = async () => {
    await db.destroy();
    pool.close();
  };
  return { db, dialect: 'sqlite', memo: new QueryMemo(Number.POSITIVE_INFINITY), nodeText, close };
}

/**
 * Connects to an AiiDA profile's PostgreSQL database; every transaction is read-only and every
 * statement is cancelled by the server at the deadline (`statement_timeout`).
 */
export function openAiidaPostgres(url: string, poolSize = 8, queryTimeoutMs = QUERY_TIMEOUT_MS): AiidaStore {
  if (parseDatabaseUrl(url).dialect !== 'postgres') throw new Error(`not a PostgreSQL url: ${url}`);
  const { db, close } = openDatabase<AiidaDatabase>(url, {
    readOnly: true,
    poolSize,
    pgSettings: { timezone: 'UTC', statement_timeout: String(queryTimeoutMs) },
  });
  return { db, dialect: 'postgres', memo: new QueryMemo(LIVE_MEMO_TTL_MS), close };
}
