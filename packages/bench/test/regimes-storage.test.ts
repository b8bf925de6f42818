import { describeEachDialect } from '@atrium/core/testing';
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { ingestReport } from '../src/domain/ingest-report.js';
import { openBenchDatabase } from '../src/index.js';
import { selectRegimes } from '../src/storage/regimes.js';
import type { Branch, Db } from '../src/storage/types.js';
import { at, bmf } from './harness.js';
import { organizationWithProjects } from './storage-project.js';

/** The database, counting the statements run through it. */
function counted(db: Db) {
  const counter = { statements: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      counter.statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), counter };
}

describeEachDialect('bench regime selection', ({ url }) => {
  it('reads every benchmark’s regime in two statements (change points, newest max_sample_size), completing a rare one exactly', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const {
        projects: [project],
      } = await organizationWithProjects(db, 'p');
      for (let i = 0; i < 12; i++) {
        const values: Record<string, Record<string, number>> = {};
        for (let b = 0; b < 30; b++) values[`bench::${b}`] = { latency: 1000 * b + i };
        if (i < 2) values.rare = { latency: 200 + i };
        await ingestReport(db, {
          project,
          userUuid: null,
          report: { branch: 'main', testbed: 'localhost', start_time: at(i), end_time: at(i), results: [bmf(values)] },
        });
      }
      const branch = (await db.selectFrom('branch').selectAll().executeTakeFirstOrThrow()) as Branch;
      const testbed = await db.selectFrom('testbed').select('uuid').executeTakeFirstOrThrow();
      const measure = await db
        .selectFrom('measure')
        .select('uuid')
        .where('slug', '=', 'latency')
        .executeTakeFirstOrThrow();
      const benchmarks = await db.selectFrom('benchmark').select(['uuid', 'name']).execute();
      const query = {
        headUuid: branch.head_uuid as string,
        testbedUuid: testbed.uuid,
        measureUuid: measure.uuid,
        maxSampleSize: 4,
        since: null,
      };
      const common = benchmarks.filter((row) => row.name !== 'rare');
      const { db: watched, counter } = counted(db);
      const regimes = await selectRegimes(watched, { ...query, benchmarkUuids: common.map((row) => row.uuid) });
      expect(counter.statements).toBe(2);
      expect(regimes.size).toBe(30);
      const third = common.find((row) => row.name === 'bench::3')?.uuid as string;
      expect(regimes.get(third)?.points.map((point) => point.value)).toEqual([3008, 3009, 3010, 3011]);

      // The rare benchmark is not among the newest 4 reports, nor the newest 2 × 4: read again from the newest 2 × 4,
      // then from the whole history.
      const rare = benchmarks.find((row) => row.name === 'rare')?.uuid as string;
      const withRare = await selectRegimes(watched, { ...query, benchmarkUuids: [third, rare] });
      expect(counter.statements).toBe(6);
      expect(withRare.get(rare)?.points.map((point) => point.value)).toEqual([200, 201]);
      expect(withRare.get(third)?.points.map((point) => point.value)).toEqual([3008, 3009, 3010, 3011]);
    } finally {
      await close();
    }
  });

  it('returns up to max_sample_size values before a regime that starts at a change point, read again for that regime only', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const {
        projects: [project],
      } = await organizationWithProjects(db, 'p');
      const level = (i: number) => (i < 20 ? 100 : 200) + (i % 3);
      const model = { test: 'change_point', max_sample_size: 16, upper_boundary: 0.99 };
      for (let i = 0; i < 30; i++) {
        await ingestReport(db, {
          project,
          userUuid: null,
          report: {
            branch: 'main',
            testbed: 'localhost',
            start_time: at(i),
            end_time: at(i),
            results: [bmf({ step: { latency: level(i) }, flat: { latency: 100 + (i % 3) } })],
            ...(i === 0 ? { thresholds: { models: { latency: model } } } : {}),
          },
        });
      }
      expect(await db.selectFrom('change_point').select('before').execute()).toHaveLength(1);
      const branch = (await db.selectFrom('branch').selectAll().executeTakeFirstOrThrow()) as Branch;
      const testbed = await db.selectFrom('testbed').select('uuid').executeTakeFirstOrThrow();
      const measure = await db
        .selectFrom('measure')
        .select('uuid')
        .where('slug', '=', 'latency')
        .executeTakeFirstOrThrow();
      const benchmarks = await db.selectFrom('benchmark').select(['uuid', 'name']).execute();
      const uuidOf = (name: string) => benchmarks.find((row) => row.name === name)?.uuid as string;
      const { db: watched, counter } = counted(db);
      const regimes = await selectRegimes(watched, {
        headUuid: branch.head_uuid as string,
        testbedUuid: testbed.uuid,
        measureUuid: measure.uuid,
        benchmarkUuids: [uuidOf('step'), uuidOf('flat')],
        maxSampleSize: 16,
        since: null,
      });
      // The newest 16 reports settle `flat`; `step` is read again from the newest 32 for the values before its cut.
      expect(counter.statements).toBe(3);
      const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
      expect(regimes.get(uuidOf('step'))).toEqual({
        points: range(20, 30).map((i) => expect.objectContaining({ value: level(i) })),
        earlier: range(4, 20).map(level),
      });
      expect(regimes.get(uuidOf('flat'))?.points).toHaveLength(16);
      expect(regimes.get(uuidOf('flat'))?.earlier).toEqual([]);
    } finally {
      await close();
    }
  });
});
