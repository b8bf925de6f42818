import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { createOrganization, findOrganization, openBenchDatabase } from '../src/index.js';

describeEachDialect('bench organizations storage', ({ url }) => {
  it('migrates, creates and finds an organization by slug or uuid; slugs are unique', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const created = await createOrganization(db, { name: 'Muriel Bagge', slug: 'muriel-bagge' }, 1_700_000_000_000);
      expect(await findOrganization(db, 'muriel-bagge')).toEqual(created);
      expect(await findOrganization(db, created.uuid)).toEqual(created);
      expect(await findOrganization(db, 'nobody')).toBeUndefined();
      await expect(createOrganization(db, { name: 'Other', slug: 'muriel-bagge' })).rejects.toThrow();
    } finally {
      await close();
    }
  });
});
