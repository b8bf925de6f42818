import { type Database, dialectOf, openDatabase } from '@atrium/core';
import { type Kysely, sql } from 'kysely';
import { benchMigrations } from './migrations/index.js';
import type { BenchDatabase } from './schema.js';

/**
 * Applies pending migrations in name order, in one transaction (serialised by an advisory lock on
 * PostgreSQL). The bookkeeping table has Kysely's layout. Core's `migrateToLatest` is not used because
 * Kysely's Migrator detects its tables by introspecting every schema of the server: it then skips
 * creating `bench_migration_lock` when another schema has one, and fails when a schema is dropped
 * concurrently (both seen with parallel dual-dialect test files).
 */
async function migrateBench(db: Kysely<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialectOf(db) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('bench_migration'))`.execute(trx);
    await sql`create table if not exists bench_migration (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
      trx,
    );
    const done = await sql<{ name: string }>`select name from bench_migration`.execute(trx);
    const applied = new Set(done.rows.map((row) => row.name));
    for (const name of Object.keys(benchMigrations).sort()) {
      if (applied.has(name)) continue;
      await benchMigrations[name]?.up(trx);
      await sql`insert into bench_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        trx,
      );
    }
  });
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
