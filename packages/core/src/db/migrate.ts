import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { type Database, type OpenDatabaseOptions, openDatabase } from './connect.js';

export type Migrations = Record<string, Migration>;

/** Which SQL dialect a Kysely instance speaks, for the few statements that differ. */
export function dialectOf(db: Kysely<unknown>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Applies a service's pending migrations in name order, all in one transaction, and returns their names.
 * Bookkeeping lives in `<service>_migration` (Kysely's layout) in the connection's own schema; on
 * PostgreSQL an advisory lock serialises concurrent starts. (Kysely's Migrator is not used: it looks for
 * its tables by introspecting every schema on the server, which breaks when services or test runs keep
 * their tables in separate schemas of one database.)
 */
export async function migrateToLatest(db: Kysely<unknown>, service: string, migrations: Migrations): Promise<string[]> {
  if (!/^[a-z][a-z0-9_]*$/.test(service))
    throw new Error(`migrations: invalid service name ${JSON.stringify(service)}`);
  const table = sql.table(`${service}_migration`);
  let current = '(setup)';
  try {
    return await exclusively(db, `${service}_migration`, async (trx) => {
      await sql`create table if not exists ${table} (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
        trx,
      );
      const done = await sql<{ name: string }>`select name from ${table}`.execute(trx);
      const applied = new Set(done.rows.map((row) => row.name));
      const pending = Object.keys(migrations)
        .sort()
        .filter((name) => !applied.has(name));
      for (const name of pending) {
        current = name;
        await migrations[name]?.up(trx);
        await sql`insert into ${table} (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
      }
      return pending;
    });
  } catch (error) {
    throw new Error(`${service}: migration ${current} failed: ${(error as Error).message}`);
  }
}

/**
 * Runs `work` in a transaction no other process can interleave with: an advisory lock on PostgreSQL,
 * `BEGIN IMMEDIATE` (the write lock up front) on SQLite.
 */
async function exclusively<T>(
  db: Kysely<unknown>,
  lock: string,
  work: (trx: Kysely<unknown>) => Promise<T>,
): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${lock}))`.execute(trx);
      return work(trx);
    });
  }
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/** Opens a service's database and brings its schema up to date; closes it again if that fails. */
export async function openMigratedDatabase<DB>(
  url: string,
  service: string,
  migrations: Migrations,
  options: OpenDatabaseOptions = {},
): Promise<Database<DB>> {
  const database = openDatabase<DB>(url, options);
  try {
    await migrateToLatest(database.db as Kysely<unknown>, service, migrations);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
