import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { createProject, listProjects, openInferenceDatabase } from '../src/index.js';

describeEachDialect('inference projects storage', ({ url }) => {
  it('migrates, creates and lists projects; names are unique', async () => {
    const { db, close } = await openInferenceDatabase(url());
    try {
      const zeta = await createProject(db, 'zeta', 2);
      const alpha = await createProject(db, 'alpha', 1);
      expect(await listProjects(db)).toEqual([alpha, zeta]);
      await expect(createProject(db, 'alpha')).rejects.toThrow();
    } finally {
      await close();
    }
  });
});
