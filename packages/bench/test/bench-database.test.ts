import { describeEachDialect } from '@atrium/core/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';

describeEachDialect('bench database connections', ({ dialect, url }) => {
  it.runIf(dialect === 'postgres')('price a random read at 1.1 sequential ones on PostgreSQL', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      // Every pooled connection, not just the first: several at once.
      const settings = await Promise.all(
        [1, 2, 3].map(
          async () =>
            (await sql<{ value: string }>`select current_setting('random_page_cost') as value`.execute(db)).rows[0]
              ?.value,
        ),
      );
      expect(settings).toEqual(['1.1', '1.1', '1.1']);
    } finally {
      await close();
    }
  });
});
