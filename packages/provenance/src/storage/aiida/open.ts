import { openDatabase, parseDatabaseUrl } from '@atrium/core';
import type { Kysely } from 'kysely';
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
 * memoised for good). LIKE is made case-sensitive as on PostgreSQL; a bounded page cache keeps the
 * resident set small even on multi-GB archives.
 */
export function openAiidaSqlite(path: string): AiidaStore {
  const { db, close } = openDatabase<AiidaDatabase>(`sqlite:${path}`, {
    readOnly: true,
    sqlitePragmas: ['case_sensitive_like = ON', 'cache_size = -32768'],
  });
  return { db, dialect: 'sqlite', memo: new QueryMemo(Number.POSITIVE_INFINITY), close };
}

/** Connects to an AiiDA profile's PostgreSQL database; every transaction is read-only. */
export function openAiidaPostgres(url: string, poolSize = 8): AiidaStore {
  if (parseDatabaseUrl(url).dialect !== 'postgres') throw new Error(`not a PostgreSQL url: ${url}`);
  const { db, close } = openDatabase<AiidaDatabase>(url, { readOnly: true, poolSize, pgSettings: { timezone: 'UTC' } });
  return { db, dialect: 'postgres', memo: new QueryMemo(LIVE_MEMO_TTL_MS), close };
}
