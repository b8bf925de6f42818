import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { checkReportLimits, reportUsageUpsert } from '../src/storage/rate-limits.js';
import { databaseBefore, oldReport, seedReportScope } from './migration-seed.js';

const HOUR = 3_600_000;

describeEachDialect('report usage counters for the daily limits', ({ url }) => {
  it('migration 0012 counts the reports of the last day per project and hour', async () => {
    const { db, at, close } = await databaseBefore(url(), '0012');
    await seedReportScope(db, at);
    const now = Date.now();
    for (const [uuid, created, metrics] of [
      ['old', now - 30 * HOUR, 100],
      ['hour-ago', now - HOUR, 5],
      ['now', now, 2],
    ] as const) {
      await db
        .insertInto('report')
        .values(oldReport(uuid, { created, metric_count: metrics }))
        .execute();
    }
    await close();
    const migrated = await openBenchDatabase(url());
    try {
      const rows = await migrated.db.selectFrom('report_usage').selectAll().orderBy('hour').execute();
      expect(rows.map((row) => [Number(row.reports), Number(row.metrics)])).toEqual(
        Math.floor((now - HOUR) / HOUR) === Math.floor(now / HOUR)
          ? [[2, 7]]
          : [
              [1, 5],
              [1, 2],
            ],
      );
      const limits = { reportsPerDay: 3, metricsPerDay: 10 };
      await expect(checkReportLimits(migrated.db, 'p', 3, limits, now)).resolves.toBeUndefined();
      await expect(checkReportLimits(migrated.db, 'p', 4, limits, now)).rejects.toMatchObject({ status: 429 });
    } finally {
      await migrated.close();
    }
  });

  it('counts a day as this hour and the 24 before it, from the counters', async () => {
    const { close } = await databaseBefore(url(), '0012');
    await close();
    const database = await openBenchDatabase(url());
    try {
      const { db } = database;
      const start = Date.UTC(2026, 10, 25, 10, 30);
      await reportUsageUpsert(db, 'p', 3, start).execute();
      await reportUsageUpsert(db, 'p', 4, start + 10 * 60_000).execute();
      const one = { reportsPerDay: 2, metricsPerDay: 1_000 };
      const metrics = { reportsPerDay: 1_000, metricsPerDay: 10 };
      await expect(checkReportLimits(db, 'p', 1, one, start + 23 * HOUR)).rejects.toMatchObject({
        status: 429,
        message: 'Daily limit of 2 report creations reached; try again later.',
      });
      await expect(checkReportLimits(db, 'p', 4, metrics, start + 24 * HOUR)).rejects.toMatchObject({
        message: 'Daily limit of 10 metrics reached; try again later.',
      });
      await expect(checkReportLimits(db, 'p', 3, metrics, start + 24 * HOUR)).resolves.toBeUndefined();
      await expect(checkReportLimits(db, 'p', 1, one, start + 25 * HOUR)).resolves.toBeUndefined();
      await expect(checkReportLimits(db, 'other', 1, one, start)).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
