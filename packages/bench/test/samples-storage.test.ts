import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { ingestReport } from '../src/domain/ingest-report.js';
import { openBenchDatabase } from '../src/index.js';
import { selectSamples } from '../src/storage/samples.js';
import type { Branch } from '../src/storage/types.js';
import { at, bmf } from './harness.js';
import { organizationWithProjects } from './storage-project.js';

describeEachDialect('bench sample selection', ({ url }) => {
  it('takes the newest samples per benchmark, completing rare benchmarks from older history', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const {
        projects: [project],
      } = await organizationWithProjects(db, 'p');
      for (let i = 0; i < 10; i++) {
        const values: Record<string, Record<string, number>> = { common: { latency: 100 + i } };
        if (i < 2) values.rare = { latency: 200 + i };
        await ingestReport(db, {
          project,
          userUuid: null,
          report: {
            branch: 'main',
            testbed: 'localhost',
            start_time: at(i),
            end_time: at(i),
            results: [bmf(values), bmf({ common: { latency: 1000 + i } })],
          },
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
      const uuidOf = (name: string) => benchmarks.find((row) => row.name === name)?.uuid as string;
      const query = {
        headUuid: branch.head_uuid as string,
        testbedUuid: testbed.uuid,
        measureUuid: measure.uuid,
        benchmarkUuids: [uuidOf('common'), uuidOf('rare')],
        since: null,
      };
      const limited = await selectSamples(db, { ...query, maxSampleSize: 3 });
      // Newest first: report 9 iteration 1, report 9 iteration 0, report 8 iteration 1.
      expect(limited.get(uuidOf('common'))).toEqual([1009, 109, 1008]);
      expect(limited.get(uuidOf('rare'))).toEqual([201, 200]);
      const all = await selectSamples(db, { ...query, maxSampleSize: null });
      expect(all.get(uuidOf('common'))).toHaveLength(20);
      const recent = await selectSamples(db, { ...query, maxSampleSize: null, since: Date.parse(at(8)) });
      expect(recent.get(uuidOf('common'))).toEqual([1009, 109, 1008, 108]);
      expect(recent.get(uuidOf('rare'))).toBeUndefined();
    } finally {
      await close();
    }
  });
});
