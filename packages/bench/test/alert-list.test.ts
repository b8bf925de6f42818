import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { ingestReport } from '../src/domain/ingest-report.js';
import { openBenchDatabase } from '../src/index.js';
import { type AlertFilter, dismissAllAlerts, listAlerts } from '../src/storage/alerts.js';
import { at, bmf } from './harness.js';
import { organizationWithProjects } from './storage-project.js';

describeEachDialect('bench alerts list', ({ url }) => {
  it('lists the alerts of non-archived branches, testbeds and measures, or of archived ones', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const {
        projects: [project],
      } = await organizationWithProjects(db, 'p');
      const alerting = { test: 'static', upper_boundary: 10 } as const;
      let second = 0;
      // Two reports per branch × testbed, the second alerting on both measures: 8 alerts.
      for (const branch of ['main', 'old']) {
        for (const testbed of ['ci', 'retired']) {
          for (const value of [1, 100]) {
            await ingestReport(db, {
              project,
              userUuid: null,
              report: {
                branch,
                testbed,
                start_time: at(second),
                end_time: at(second),
                results: [bmf({ fib: { latency: value, size: value } })],
                thresholds: { models: { latency: alerting, size: alerting } },
              },
            });
            second++;
          }
        }
      }
      for (const [table, slug] of [
        ['branch', 'old'],
        ['testbed', 'retired'],
        ['measure', 'size'],
      ] as const) {
        await db
          .updateTable(table)
          .set({ archived: 1 })
          .where('project_uuid', '=', project.uuid)
          .where('slug', '=', slug)
          .execute();
      }
      const list = async (filter: Omit<AlertFilter, 'projectUuid'>) => {
        const listed = await listAlerts(db, { projectUuid: project.uuid, ...filter }, 'created', {
          limit: 255,
          offset: 0,
          direction: 'asc',
        });
        return { total: listed.total, rows: listed.rows.length };
      };
      expect(await list({ archived: false })).toEqual({ total: 1, rows: 1 });
      expect(await list({ archived: true })).toEqual({ total: 7, rows: 7 });
      expect(await list({ archived: true, status: 'dismissed' })).toEqual({ total: 0, rows: 0 });
      expect(await dismissAllAlerts(db, project.uuid)).toBe(1);
      expect(await list({ archived: false, status: 'dismissed' })).toEqual({ total: 1, rows: 1 });
      expect(await list({ archived: true, status: 'active' })).toEqual({ total: 7, rows: 7 });
      await db.updateTable('measure').set({ archived: null }).where('project_uuid', '=', project.uuid).execute();
      expect(await list({ archived: false })).toEqual({ total: 2, rows: 2 });
    } finally {
      await close();
    }
  });
});
