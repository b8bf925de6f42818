import { openMigratedDatabase } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { benchMigrations } from '../src/storage/migrations/index.js';
import type { BenchDatabase } from '../src/storage/schema.js';

const dimension = (uuid: string) => ({ uuid, project_uuid: 'p', name: uuid, slug: uuid, created: 1, modified: 1 });

/** A project with one report, one metric over its threshold and its alert. */
const rows: [string, Record<string, unknown>][] = [
  ['organization', { uuid: 'o', name: 'O', slug: 'o', created: 1, modified: 1 }],
  [
    'project',
    { uuid: 'p', organization_uuid: 'o', name: 'P', slug: 'p', visibility: 'public', created: 1, modified: 1 },
  ],
  ['branch', { ...dimension('main'), head_uuid: 'h' }],
  ['testbed', dimension('tb')],
  ['benchmark', dimension('bm')],
  ['measure', { ...dimension('ms'), units: 'ns' }],
  ['version', { uuid: 'v', project_uuid: 'p', number: 1 }],
  ['head', { uuid: 'h', branch_uuid: 'main', created: 1 }],
  [
    'threshold',
    {
      uuid: 't',
      project_uuid: 'p',
      branch_uuid: 'main',
      testbed_uuid: 'tb',
      measure_uuid: 'ms',
      created: 1,
      modified: 1,
    },
  ],
  ['model', { uuid: 'md', threshold_uuid: 't', test: 'static', lower_boundary: null, upper_boundary: 1, created: 1 }],
  [
    'report',
    {
      uuid: 'r',
      project_uuid: 'p',
      head_uuid: 'h',
      version_uuid: 'v',
      testbed_uuid: 'tb',
      adapter: 'json',
      start_time: 1,
      end_time: 1,
      created: 1,
    },
  ],
  ['report_benchmark', { uuid: 'rb', report_uuid: 'r', iteration: 0, benchmark_uuid: 'bm' }],
  ['metric', { uuid: 'm', report_benchmark_uuid: 'rb', measure_uuid: 'ms', value: 2 }],
  ['boundary', { uuid: 'b', metric_uuid: 'm', threshold_uuid: 't', model_uuid: 'md', upper_limit: 1 }],
  ['alert', { uuid: 'a', boundary_uuid: 'b', boundary_limit: 'upper', status: 'active', created: 1, modified: 1 }],
];

/** A database migrated up to (not including) `migration`, holding `rows`. */
async function seededBefore(url: string, migration: string): Promise<void> {
  const before = Object.fromEntries(Object.entries(benchMigrations).filter(([name]) => name < migration));
  const old = await openMigratedDatabase<BenchDatabase>(url, 'bench', before);
  const db = old.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (const [table, row] of rows) await db.insertInto(table).values(row).execute();
  await old.close();
}

describeEachDialect('bench migrations of existing data', ({ url }) => {
  it('0005 fills the project of existing alerts from their reports', async () => {
    const database = url();
    await seededBefore(database, '0005');
    const migrated = await openBenchDatabase(database);
    const alert = await migrated.db.selectFrom('alert').selectAll().executeTakeFirstOrThrow();
    expect(alert).toMatchObject({ uuid: 'a', project_uuid: 'p' });
    await migrated.close();
  });

  it('0007 counts the metrics of existing reports', async () => {
    const database = url();
    await seededBefore(database, '0007');
    const migrated = await openBenchDatabase(database);
    const report = await migrated.db.selectFrom('report').selectAll().executeTakeFirstOrThrow();
    expect(report).toMatchObject({ uuid: 'r', metric_count: 1 });
    await migrated.close();
  });
});
