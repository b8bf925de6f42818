import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createLogger, type Logger } from '../log/logger.js';
import { startCheckpointer } from './checkpointer.js';
import { PreparingClient } from './pg-prepared.js';
import { type DatabaseTarget, parseDatabaseUrl } from './url.js';

// COUNT(*) and BIGINT come back as strings from pg by default; our counters fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DatabaseTarget['dialect'];
  /**
   * Runs a compiled select and answers its rows as arrays of column values in select order. For wide
   * result sets: better-sqlite3 builds a row object property by property, arrays mapped to objects in
   * JavaScript cost about a third less.
   */
  selectArrays(query: CompiledQuery): Promise<unknown[][]>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** SQLite: milliseconds to wait on a locked database before failing. */
  busyTimeoutMs?: number;
  /**
   * Someone else's database: SQLite opens an existing file read-only (no WAL switch, no folders
   * created); every PostgreSQL transaction is read-only.
   */
  readOnly?: boolean;
  /** SQLite: further `PRAGMA`s, e.g. `cache_size = -32768`. */
  sqlitePragmas?: string[];
  /** PostgreSQL: run-time settings for every connection, e.g. `{ timezone: 'UTC' }`. */
  pgSettings?: Record<string, string>;
  /** PostgreSQL: how long a query waits for a connection (new or from the full pool) before failing. */
  connectTimeoutMs?: number;
  /** Where lost PostgreSQL connections are reported (default: a warn-level logger on stdout). */
  logger?: Logger;
}

let fallbackLogger: Logger | undefined;

function defaultLogger(): Logger {
  fallbackLogger ??= createLogger({ level: 'warn' });
  return fallbackLogger;
}

/**
 * A connection PostgreSQL closes (restart, `pg_terminate_backend`, `idle_session_timeout`) emits `error`
 * on its client, idle in the pool or checked out between two queries; unheard, that event ends the
 * process. Heard, the pool drops the client and the next query connects again.
 */
function reportLostConnections(pool: pg.Pool, logger: Logger): pg.Pool {
  const report = (error: Error & { code?: string }) =>
    logger.warn({ code: error.code, reason: error.message }, 'PostgreSQL connection lost');
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * Kysely asks better-sqlite3 to prepare every statement it runs; preparing costs as much as running a
 * point query. Statements are reused by SQL text instead (bounded, least recently used dropped). Safe:
 * Kysely runs one statement at a time per connection, and SQLite re-prepares after schema changes.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, size = 512) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      sqlite.close();
    },
    prepare(sql: string): SqliteDatabase.Statement {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

function openSqlite(path: string, options: OpenDatabaseOptions): SqliteDatabase.Database {
  if (options.readOnly) {
    const sqlite = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
    for (const pragma of options.sqlitePragmas ?? []) sqlite.pragma(pragma);
    return sqlite;
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  sqlite.pragma('foreign_keys = ON');
  for (const pragma of options.sqlitePragmas ?? []) sqlite.pragma(pragma);
  return sqlite;
}

function openPostgres(target: Extract<DatabaseTarget, { dialect: 'postgres' }>, options: OpenDatabaseOptions) {
  const settings = {
    ...(target.schema ? { search_path: target.schema } : {}),
    ...(options.readOnly ? { default_transaction_read_only: 'on' } : {}),
    ...options.pgSettings,
  };
  const flags = Object.entries(settings).map(([key, value]) => `-c ${key}=${value}`);
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    ...(target.prepare ? { Client: PreparingClient } : {}),
    ...(flags.length ? { options: flags.join(' ') } : {}),
  });
  return reportLostConnections(pool, options.logger ?? defaultLogger());
}

/** Opens a Kysely database for a `sqlite:` or `postgres://` URL. */
export function openDatabase<DB>(url: string, options: OpenDatabaseOptions = {}): Database<DB> {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') {
    const connection = openSqlite(target.path, options);
    const stopCheckpointer =
      options.readOnly || target.path === ':memory:'
        ? undefined
        : startCheckpointer(connection, target.path, options.logger ?? defaultLogger());
    const sqlite = withStatementCache(connection);
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    // Holding Kysely's connection keeps the read out of a transaction another request has open on it.
    const selectArrays = (query: CompiledQuery) =>
      db.connection().execute(async () => {
        const statement = sqlite.prepare(query.sql).raw(true);
        try {
          return statement.all(query.parameters) as unknown[][];
        } finally {
          statement.raw(false);
        }
      });
    const close = async () => {
      await stopCheckpointer?.();
      await db.destroy();
    };
    return { db, dialect: 'sqlite', selectArrays, close };
  }
  const pool = openPostgres(target, options);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const selectArrays = async (query: CompiledQuery) =>
    (await pool.query({ text: query.sql, values: query.parameters as unknown[], rowMode: 'array' })).rows;
  return { db, dialect: 'postgres', selectArrays, close: () => db.destroy() };
}
