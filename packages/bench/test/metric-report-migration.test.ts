import { describeEachDialect } from '@atrium/core/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { databaseBefore, oldReport, seedReportScope } from './migration-seed.js';

describeEachDialect(
  'bench migration 0011 (a metric carries its report, benchmark and iteration)',
  ({ dialect, url }) => {
    it('copies them from report_benchmark and plots a report measure from one index range', async () => {
      const { db, at, close } = await databaseBefore(url(), '0011');
      await seedReportScope(db, at);
      await db
        .insertInto('measure')
        .values({ uuid: 'm', project_uuid: 'p', name: 'Latency', slug: 'latency', units: 'ns', ...at })
        .execute();
      for (const benchmark of ['x', 'y'])
        await db
          .insertInto('benchmark')
          .values({ uuid: benchmark, project_uuid: 'p', name: benchmark, slug: benchmark, ...at })
          .execute();
      await db.insertInto('report').values(oldReport('r')).execute();
      for (const [rb, iteration, benchmark] of [
        ['rb0', 0, 'x'],
        ['rb1', 1, 'y'],
      ] as const) {
        await db
          .insertInto('report_benchmark')
          .values({ uuid: rb, report_uuid: 'r', iteration, benchmark_uuid: benchmark })
          .execute();
        await db
          .insertInto('metric')
          .values({
            uuid: `metric-${rb}`,
            report_benchmark_uuid: rb,
            measure_uuid: 'm',
            value: iteration,
            lower_value: null,
            upper_value: null,
          })
          .execute();
      }
      await close();

      const migrated = await openBenchDatabase(url());
      const rows = await migrated.db
        .selectFrom('metric')
        .select(['uuid', 'report_uuid', 'benchmark_uuid', 'iteration'])
        .orderBy('uuid')
        .execute();
      expect(rows).toEqual([
        { uuid: 'metric-rb0', report_uuid: 'r', benchmark_uuid: 'x', iteration: 0 },
        { uuid: 'metric-rb1', report_uuid: 'r', benchmark_uuid: 'y', iteration: 1 },
      ]);
      if (dialect === 'sqlite') {
        const plan = await sql<{ detail: string }>`
        explain query plan select value from metric
        where report_uuid = ${'r'} and measure_uuid = ${'m'} and benchmark_uuid in (${'x'}, ${'y'})`.execute(
          migrated.db,
        );
        expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(/COVERING INDEX metric_report_perf/);
      }
      await migrated.close();
    });
  },
);
