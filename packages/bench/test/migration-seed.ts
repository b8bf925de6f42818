import { openMigratedDatabase } from '@atrium/core';
import type { Kysely } from 'kysely';
import { benchMigrations } from '../src/storage/migrations/index.js';
import type { BenchDatabase } from '../src/storage/schema.js';

export type OldDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * A bench database migrated up to (not including) `migration`, holding organization `o`, project `p`
 * and its branch `b`, for a migration test to add rows in the old schema before migrating the rest.
 */
export async function databaseBefore(url: string, migration: string) {
  const before = Object.fromEntries(Object.entries(benchMigrations).filter(([name]) => name < migration));
  const old = await openMigratedDatabase<BenchDatabase>(url, 'bench', before);
  const db = old.db as unknown as OldDb;
  const at = { created: 1, modified: 1 };
  await db
    .insertInto('organization')
    .values({ uuid: 'o', name: 'O', slug: 'o', ...at, deleted: null })
    .execute();
  await db
    .insertInto('project')
    .values({ uuid: 'p', organization_uuid: 'o', name: 'P', slug: 'p', url: null, visibility: 'public', ...at })
    .execute();
  await db
    .insertInto('branch')
    .values({ uuid: 'b', project_uuid: 'p', name: 'main', slug: 'main', ...at })
    .execute();
  return { db, at, close: () => old.close() };
}
