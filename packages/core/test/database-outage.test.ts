import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeError, openDatabase } from '../src/index.js';
import {
  captureLog,
  createTestDatabase,
  postgresAvailable,
  startThrowawayPostgres,
  type TestDatabase,
  type ThrowawayPostgres,
  tagConnections,
  terminateBackends,
  testPgUrl,
} from '../src/testing/index.js';

const runPostgres = await postgresAvailable();
const select1 = sql<{ one: number }>`select 1 as one`;

describe.skipIf(!runPostgres)('PostgreSQL connections that the server closes', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(() => database.drop());

  it('are dropped from the pool, reported at warn without the URL, and the next query connects again', async () => {
    const tagged = tagConnections(database.url);
    const log = captureLog();
    const { db, close } = openDatabase(tagged.url, { logger: log.logger });
    try {
      await Promise.all([select1.execute(db), select1.execute(db)]);
      expect(await terminateBackends(testPgUrl, tagged.applicationName)).toBeGreaterThan(0);
      await sleep(200);
      expect((await select1.execute(db)).rows).toEqual([{ one: 1 }]);
      expect(log.text()).toContain('PostgreSQL connection lost');
      expect(log.text()).toContain('"code":"57P01"');
      expect(log.text()).not.toContain(tagged.applicationName);
    } finally {
      await close();
    }
  });

  it('end a transaction between two of its queries with a database_unavailable error, not a crash', async () => {
    const tagged = tagConnections(database.url);
    const { db, close } = openDatabase(tagged.url, { logger: captureLog().logger });
    try {
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          await select1.execute(trx);
          await terminateBackends(testPgUrl, tagged.applicationName);
          await sleep(200);
          await select1.execute(trx);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(normalizeError(failed)).toMatchObject({ status: 503, code: 'database_unavailable' });
      expect((await select1.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await close();
    }
  });
});

describe('a PostgreSQL server that stops and starts again', () => {
  let cluster: ThrowawayPostgres;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy());

  it('fails queries quickly as database_unavailable while down, and serves again once it is back', async () => {
    const { db, close } = openDatabase(cluster.url, { logger: captureLog().logger, connectTimeoutMs: 1000 });
    try {
      await select1.execute(db);
      await cluster.stop();
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const error = await select1.execute(db).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(normalizeError(error)).toMatchObject({ status: 503, code: 'database_unavailable' });
        expect(performance.now() - started).toBeLessThan(1500);
      }
      await cluster.start();
      expect((await select1.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await close();
    }
  });
});
