import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { type PerfQuery, perfMetrics, perfSql } from '../src/storage/perf.js';
import { at, type Bench, seedProject, startBench } from './harness.js';

const report = (branch: string, testbed: string, second: number, value: number) => ({
  branch,
  testbed,
  hash: `${second}`.padStart(40, '0'),
  start_time: at(second),
  end_time: at(second + 1),
  results: [JSON.stringify({ sort: { latency: { value } }, fib: { latency: { value: value * 2 } } })],
});

describeEachDialect('perf reports in a window', ({ dialect, url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('finds the same reports and metrics from the window as from the heads, start points included', async () => {
    const post = (body: object) =>
      bench.json('POST', '/v0/projects/the-computer/reports', { token: bench.muriel, body });
    for (let second = 0; second < 6; second++) await post(report('main', 'lab', second * 10, 100 + second));
    await post(report('main', 'cloud', 25, 7));
    await bench.json('POST', '/v0/projects/the-computer/branches', {
      token: bench.muriel,
      body: { name: 'feature', start_point: { branch: 'main' } },
    });
    for (let second = 6; second < 9; second++) await post(report('feature', 'lab', second * 10, 200 + second));
    const database = await openBenchDatabase(url());
    try {
      const { db } = database;
      const uuids = async (table: 'testbed' | 'benchmark' | 'measure') =>
        (await db.selectFrom(table).select('uuid').execute()).map((row) => row.uuid);
      const project = await db
        .selectFrom('project')
        .select('uuid')
        .where('slug', '=', 'the-computer')
        .executeTakeFirstOrThrow();
      const heads = (await db.selectFrom('branch').select('head_uuid').execute()).map((row) => row.head_uuid as string);
      const base: PerfQuery = {
        headUuids: heads,
        testbedUuids: await uuids('testbed'),
        benchmarkUuids: await uuids('benchmark'),
        measureUuids: await uuids('measure'),
      };
      const sorted = (rows: { uuid: string; head_uuid: string }[]) =>
        [...rows].sort((a, b) => `${a.head_uuid}${a.uuid}`.localeCompare(`${b.head_uuid}${b.uuid}`));
      for (const window of [
        { startTime: Date.parse(at(0)) },
        { startTime: Date.parse(at(20)) },
        { startTime: Date.parse(at(20)), endTime: Date.parse(at(61)) },
        { startTime: Date.parse(at(75)) },
        { startTime: Date.parse(at(500)) },
      ]) {
        const byHeads = await perfMetrics(database, { ...base, ...window });
        const byWindow = await perfMetrics(database, { ...base, ...window, projectUuid: project.uuid });
        expect(sorted(byWindow.reports)).toEqual(sorted(byHeads.reports));
        expect(byWindow.metrics).toEqual(byHeads.metrics);
      }
      const inherited = await perfMetrics(database, {
        ...base,
        startTime: Date.parse(at(0)),
        projectUuid: project.uuid,
      });
      if (dialect === 'sqlite') {
        const windowed = perfSql({ ...base, startTime: Date.parse(at(20)), projectUuid: project.uuid }).compile(db);
        const plan = await db.executeQuery<{ detail: string }>({
          ...windowed,
          sql: `explain query plan ${windowed.sql}`,
        });
        expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(/SEARCH r USING INDEX report_project_time/);
      }
      // The feature branch sees main's reports through its start point: 6 + 1 (cloud) on main, 7 + 3 on feature.
      expect(inherited.reports.length).toBe(17);
    } finally {
      await database.close();
    }
  });
});
