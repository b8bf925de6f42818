import { afterEach, beforeEach, describe } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase, type TestDialect } from './databases.js';

const runPostgres = await postgresAvailable();

export interface DialectContext {
  dialect: TestDialect;
  /** The fresh database of the running test (a new one for every test). */
  url(): string;
}

/**
 * Declares the same tests twice: once on a SQLite file and once on PostgreSQL, each test with its
 * own empty database. The PostgreSQL half is skipped (with a warning) only outside CI.
 */
export function describeEachDialect(title: string, body: (context: DialectContext) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(dialect === 'postgres' && !runPostgres)(`${title} [${dialect}]`, () => {
      let current: TestDatabase | undefined;
      beforeEach(async () => {
        current = await createTestDatabase(dialect);
      });
      afterEach(async () => {
        await current?.drop();
        current = undefined;
      });
      body({
        dialect,
        url: () => {
          if (!current) throw new Error('url() is only available inside a test');
          return current.url;
        },
      });
    });
  }
}
