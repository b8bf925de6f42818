import { parseDatabaseUrl } from '@atrium/core';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { QueryMemo } from './memo.js';
import type { AiidaDatabase } from './schema.js';

export type AiidaDialect = 'sqlite' | 'postgres';

/** A read-only connection to a database in AiiDA's schema. */
export interface AiidaStore {
  db: Kysely<AiidaDatabase>;
  dialect: AiidaDialect;
  /** Aggregates (totals, type counts, statistics) already computed. */
  memo: QueryMemo;
  close(): Promise<void>;
}

/** How long a live database's aggregates may be served from the memo. */
export const LIVE_MEMO_TTL_MS = 10_000;

/**
 * Opens an AiiDA SQLite file read-only (our extracted archive copy: immutable, so aggregates are
 * memoised for good) (core's opener always opens read-write with WAL, which would
 * write next to a user's file). LIKE is made case-sensitive as on PostgreSQL.
 */
export function openAiidaSqlite(path: string): AiidaStore {
  const sqlite = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  sqlite.pragma('case_sensitive_like = ON');
  // A bounded page cache and no mmap keep the resident set small even on multi-GB archives.
  sqlite.pragma('cache_size = -32768');
  const db = new Kysely<AiidaDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', memo: new QueryMemo(Number.POSITIVE_INFINITY), close: () => db.destroy() };
}

/** Connects to an AiiDA profile's PostgreSQL database; every transaction is read-only. */
export function openAiidaPostgres(url: string, poolSize = 8): AiidaStore {
  const target = parseDatabaseUrl(url);
  if (target.dialect !== 'postgres') throw new Error(`not a PostgreSQL url: ${url}`);
  const options = ['-c default_transaction_read_only=on', '-c timezone=UTC'];
  if (target.schema) options.push(`-c search_path=${target.schema}`);
  const pool = new pg.Pool({ connectionString: target.connectionString, max: poolSize, options: options.join(' ') });
  const db = new Kysely<AiidaDatabase>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', memo: new QueryMemo(LIVE_MEMO_TTL_MS), close: () => db.destroy() };
}
