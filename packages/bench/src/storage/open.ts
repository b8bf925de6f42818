import { type Database, dialectOf, openDatabase } from '@atrium/core';
import { type Kysely, Migrator, sql } from 'kysely';
import { benchMigrations } from './migrations/index.js';
import type { BenchDatabase } from './schema.js';

/**
 * Brings the bench schema up to date. Unlike core's `migrateToLatest`, this names the PostgreSQL schema
 * of the bookkeeping tables: without it Kysely finds `bench_migration_lock` of *another* schema on the
 * same server and skips creating its own (seen with parallel test files).
 */
async function migrateBench(db: Kysely<unknown>): Promise<void> {
  let schema: string | undefined;
  if (dialectOf(db) === 'postgres') {
    schema = (await sql<{ s: string | null }>`select current_schema() as s`.execute(db)).rows[0]?.s ?? undefined;
    if (!schema) throw new Error('migrations: the PostgreSQL search_path names no existing schema');
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => benchMigrations },
    migrationTableName: 'bench_migration',
    migrationLockTableName: 'bench_migration_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`bench: migration ${failed?.migrationName ?? '(setup)'} failed: ${cause}`);
  }
}

export async function openBenchDatabase(url: string): Promise<Database<BenchDatabase>> {
  const database = openDatabase<BenchDatabase>(url);
  try {
    await migrateBench(database.db as Kysely<unknown>);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
