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

/** Head `h`, version `v` and testbed `t` of project `p` in an old-schema database, which a report needs. */
export async function seedReportScope(db: OldDb, at: { created: number; modified: number }): Promise<void> {
  await db.insertInto('head').values({ uuid: 'h', branch_uuid: 'b', created: 1, replaced: null }).execute();
  await db.insertInto('version').values({ uuid: 'v', project_uuid: 'p', number: 1, hash: null }).execute();
  await db
    .insertInto('testbed')
    .values({ uuid: 't', project_uuid: 'p', name: 'ci', slug: 'ci', ...at })
    .execute();
}

/** A report of project `p` on head `h`, version `v` and testbed `t`, with the given columns. */
export const oldReport = (uuid: string, columns: Record<string, unknown> = {}) => ({
  uuid,
  project_uuid: 'p',
  user_uuid: null,
  head_uuid: 'h',
  version_uuid: 'v',
  testbed_uuid: 't',
  adapter: 'json',
  start_time: 1,
  end_time: 2,
  created: 3,
  ...columns,
});
