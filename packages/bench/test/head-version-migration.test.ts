import { describeEachDialect } from '@atrium/core/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { databaseBefore } from './migration-seed.js';

describeEachDialect('bench migration 0009 (a head version carries its number)', ({ dialect, url }) => {
  it('copies every version number into head_version and finds a head newest version by index', async () => {
    const { db, close } = await databaseBefore(url(), '0009');
    for (const head of ['h1', 'h2'])
      await db.insertInto('head').values({ uuid: head, branch_uuid: 'b', created: 1, replaced: null }).execute();
    for (const [uuid, number] of [
      ['v0', 0],
      ['v1', 1],
      ['v7', 7],
    ] as const) {
      await db.insertInto('version').values({ uuid, project_uuid: 'p', number, hash: null }).execute();
      await db.insertInto('head_version').values({ head_uuid: 'h1', version_uuid: uuid }).execute();
    }
    await db.insertInto('head_version').values({ head_uuid: 'h2', version_uuid: 'v1' }).execute();
    await close();

    const migrated = await openBenchDatabase(url());
    const rows = await migrated.db
      .selectFrom('head_version')
      .select(['head_uuid', 'version_uuid', 'number'])
      .orderBy('head_uuid')
      .orderBy('number')
      .execute();
    expect(rows).toEqual([
      { head_uuid: 'h1', version_uuid: 'v0', number: 0 },
      { head_uuid: 'h1', version_uuid: 'v1', number: 1 },
      { head_uuid: 'h1', version_uuid: 'v7', number: 7 },
      { head_uuid: 'h2', version_uuid: 'v1', number: 1 },
    ]);
    if (dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`
        explain query plan select max(number) from head_version where head_uuid = ${'h1'}`.execute(migrated.db);
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(/COVERING INDEX head_version_number/);
    }
    await migrated.close();
  });
});
