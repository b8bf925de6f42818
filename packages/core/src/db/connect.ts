import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type DatabaseTarget, parseDatabaseUrl } from './url.js';

// COUNT(*) and BIGINT come back as strings from pg by default; our counters fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DatabaseTarget['dialect'];
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** SQLite: milliseconds to wait on a locked database before failing. */
  busyTimeoutMs?: number;
}

function openSqlite(path: string, options: OpenDatabaseOptions): SqliteDatabase.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

function openPostgres(target: Extract<DatabaseTarget, { dialect: 'postgres' }>, options: OpenDatabaseOptions) {
  return new pg.Pool({
    connectionString: target.connectionString,
    max: options.poolSize ?? 10,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
}

/** Opens a Kysely database for a `sqlite:` or `postgres://` URL. */
export function openDatabase<DB>(url: string, options: OpenDatabaseOptions = {}): Database<DB> {
  const target = parseDatabaseUrl(url);
  const dialect =
    target.dialect === 'sqlite'
      ? new SqliteDialect({ database: openSqlite(target.path, options) })
      : new PostgresDialect({ pool: openPostgres(target, options) });
  const db = new Kysely<DB>({ dialect });
  return { db, dialect: target.dialect, close: () => db.destroy() };
}
