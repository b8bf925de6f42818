import { type Kysely, type Migration, Migrator, PostgresAdapter, sql } from 'kysely';
import { type Database, type OpenDatabaseOptions, openDatabase } from './connect.js';

export type Migrations = Record<string, Migration>;

/** Which SQL dialect a Kysely instance speaks, for the few statements that differ. */
export function dialectOf(db: Kysely<unknown>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Applies a service's migrations in name order. Each service keeps its own bookkeeping tables
 * (`<service>_migration`), so services can share one database or schema.
 */
export async function migrateToLatest(db: Kysely<unknown>, service: string, migrations: Migrations): Promise<string[]> {
  if (dialectOf(db) === 'postgres') {
    const schema = await sql<{ s: string }>`select current_schema() as s`.execute(db);
    if (!schema.rows[0]?.s) throw new Error('migrations: the PostgreSQL search_path names no existing schema');
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `${service}_migration`,
    migrationLockTableName: `${service}_migration_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`${service}: migration ${failed?.migrationName ?? '(setup)'} failed: ${cause}`);
  }
  return (results ?? []).map((r) => r.migrationName);
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
