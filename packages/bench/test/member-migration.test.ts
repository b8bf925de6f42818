import { openMigratedDatabase } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { benchMigrations } from '../src/storage/migrations/index.js';
import type { BenchDatabase } from '../src/storage/schema.js';

describeEachDialect('bench migration 0004 (when a membership last changed)', ({ url }) => {
  it('starts existing memberships at their creation time', async () => {
    const before = Object.fromEntries(Object.entries(benchMigrations).filter(([name]) => name < '0004'));
    const old = await openMigratedDatabase<BenchDatabase>(url(), 'bench', before);
    const db = old.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('user')
      .values({ uuid: 'u', name: 'U', slug: 'u', email: 'u@x', admin: 0, locked: 0, created: 1, modified: 1 })
      .execute();
    await db
      .insertInto('organization')
      .values({ uuid: 'o', name: 'O', slug: 'o', created: 1, modified: 1, deleted: null })
      .execute();
    await db
      .insertInto('organization_role')
      .values({ organization_uuid: 'o', user_uuid: 'u', role: 'leader', created: 1_700_000_000_000 })
      .execute();
    await old.close();

    const migrated = await openBenchDatabase(url());
    const row = await migrated.db.selectFrom('organization_role').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'leader', created: 1_700_000_000_000, modified: 1_700_000_000_000 });
    await migrated.close();
  });
});
