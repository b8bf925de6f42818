import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { listArchives, openProvenanceDatabase, recordArchive } from '../src/index.js';

describeEachDialect('provenance archive index storage', ({ url }) => {
  it('migrates, records archives and refreshes one by content hash', async () => {
    const { db, close } = await openProvenanceDatabase(url());
    try {
      const first = {
        sha256: 'a'.repeat(64),
        path: '/x/one.aiida',
        format_version: 'main_0001',
        node_count: 10,
        loaded_at: 1,
      };
      const second = {
        sha256: 'b'.repeat(64),
        path: '/x/two.aiida',
        format_version: '0.4',
        node_count: 3,
        loaded_at: 2,
      };
      await recordArchive(db, first);
      await recordArchive(db, second);
      await recordArchive(db, { ...first, path: '/moved/one.aiida', loaded_at: 3 });
      expect(await listArchives(db)).toEqual([{ ...first, path: '/moved/one.aiida', loaded_at: 3 }, second]);
    } finally {
      await close();
    }
  });
});
