import { describeEachDialect } from '@atrium/core/testing';
import { CompiledQuery } from 'kysely';
import { expect, it } from 'vitest';
import { ingestReport } from '../src/domain/ingest-report.js';
import { openBenchDatabase } from '../src/index.js';
import { filteredReports, listReports, type ReportFilter } from '../src/storage/reports.js';
import type { Db } from '../src/storage/types.js';
import { at, bmf } from './harness.js';
import { organizationWithProjects } from './storage-project.js';

/** Two branches and two testbeds, one of each archived after their reports: 3 + 2 + 2 + 1 reports. */
async function seed(db: Db) {
  const {
    projects: [project, other],
  } = await organizationWithProjects(db, 'p', 'q');
  const placed: [string, string, number][] = [
    ['main', 'ci', 3],
    ['old', 'ci', 2],
    ['main', 'retired', 2],
    ['old', 'retired', 1],
  ];
  let second = 0;
  const names = new Map<string, string>();
  for (const [branch, testbed, count] of placed) {
    for (let i = 0; i < count; i++) {
      const report = {
        branch,
        testbed,
        start_time: at(second),
        end_time: at(second),
        results: [bmf({ b: { latency: 1 } })],
      };
      const { report: row } = await ingestReport(db, { project, userUuid: null, report });
      names.set(row.uuid, `${branch}/${testbed}`);
      second++;
    }
  }
  // The same names in another project, none archived: never counted.
  await ingestReport(db, {
    project: other,
    userUuid: null,
    report: {
      branch: 'old',
      testbed: 'retired',
      start_time: at(0),
      end_time: at(0),
      results: [bmf({ b: { latency: 1 } })],
    },
  });
  await db
    .updateTable('branch')
    .set({ archived: 1 })
    .where('project_uuid', '=', project.uuid)
    .where('slug', '=', 'old')
    .execute();
  await db
    .updateTable('testbed')
    .set({ archived: 1 })
    .where('project_uuid', '=', project.uuid)
    .where('slug', '=', 'retired')
    .execute();
  return { project, names };
}

describeEachDialect('bench reports list', ({ dialect, url }) => {
  it('counts and lists the reports of non-archived branches and testbeds, or of archived ones', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const { project, names } = await seed(db);
      const list = async (filter: Omit<ReportFilter, 'projectUuid'>, limit = 2) => {
        const listed = await listReports(
          db,
          { projectUuid: project.uuid, ...filter },
          { limit, offset: 0, direction: undefined },
        );
        return { total: listed.total, rows: listed.rows.map((row) => names.get(row.uuid)) };
      };
      const cases: [Omit<ReportFilter, 'projectUuid'>, { total: number; rows: string[] }][] = [
        [{ archived: false }, { total: 3, rows: ['main/ci', 'main/ci'] }],
        [{ archived: true }, { total: 5, rows: ['old/retired', 'main/retired'] }],
        [
          { archived: true, branch: { column: 'slug', value: 'old' } },
          { total: 3, rows: ['old/retired', 'old/ci'] },
        ],
        [
          { archived: true, testbed: { column: 'name', value: 'ci' } },
          { total: 2, rows: ['old/ci', 'old/ci'] },
        ],
        [
          { archived: true, branch: { column: 'slug', value: 'main' } },
          { total: 2, rows: ['main/retired', 'main/retired'] },
        ],
        [
          { archived: false, branch: { column: 'slug', value: 'old' } },
          { total: 0, rows: [] },
        ],
        [
          { archived: false, startTime: Date.parse(at(1)) },
          { total: 2, rows: ['main/ci', 'main/ci'] },
        ],
      ];
      for (const [filter, expected] of cases) expect(await list(filter), JSON.stringify(filter)).toEqual(expected);

      if (dialect === 'sqlite') {
        const plan = async (query: CompiledQuery) =>
          (
            await db.executeQuery<{ detail: string }>(
              CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
            )
          ).rows
            .map((row) => row.detail)
            .join('\n');
        const filtered = filteredReports(db, { projectUuid: project.uuid, archived: false });
        const count = filtered.select((eb) => eb.fn.countAll().as('n')).compile();
        expect(await plan(count)).toMatch(/COVERING INDEX report_project_scope \(project_uuid=\? AND head_uuid=\? AND/);
        const page = filtered.selectAll().orderBy('start_time', 'desc').orderBy('end_time', 'desc').limit(8).compile();
        expect(await plan(page)).toMatch(/^SEARCH report USING INDEX report_project_times/);
        expect(await plan(page)).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    } finally {
      await close();
    }
  });
});
