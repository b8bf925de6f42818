import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AiidaStore, openAiidaPostgres, openAiidaSqlite } from '../src/storage/aiida/open.js';
import { QueryQueueFullError, QueryTimeoutError, SqliteWorkerPool } from '../src/storage/aiida/sqlite-pool.js';

const DEADLINE_MS = 300;

/** Minutes of CPU on SQLite. */
const COUNT_TO_A_BILLION =
  'with recursive c(x) as (select 1 union all select x + 1 from c limit 1000000000) select count(*) from c';
const slow = (dialect: string) => (dialect === 'postgres' ? sql`select pg_sleep(5)` : sql.raw(COUNT_TO_A_BILLION));

const one = async <DB>(db: Kysely<DB>) => (await sql<{ one: number }>`select 1 as one`.execute(db)).rows;

/** A database file SQLite can open read-only. */
async function sqliteFile(url: string): Promise<string> {
  const { db, close } = openDatabase(url);
  await one(db);
  await close();
  return url.slice('sqlite:'.length);
}

describeEachDialect('statement deadline of an AiiDA store', ({ dialect, url }) => {
  let store: AiidaStore;
  beforeEach(async () => {
    store =
      dialect === 'postgres'
        ? openAiidaPostgres(url(), 1, DEADLINE_MS)
        : openAiidaSqlite(await sqliteFile(url()), DEADLINE_MS);
  });
  afterEach(() => store.close());

  it('stops a statement at the deadline and serves the next one', async () => {
    await one(store.db);
    const started = performance.now();
    const error = await slow(dialect)
      .execute(store.db)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS + 700);
    if (dialect === 'postgres') expect(error).toMatchObject({ code: '57014' });
    else expect(error).toBeInstanceOf(QueryTimeoutError);
    expect(await one(store.db)).toEqual([{ one: 1 }]);
  });
});

describe('SqliteWorkerPool', () => {
  let pool: SqliteWorkerPool;
  beforeEach(async () => {
    const path = await sqliteFile(`sqlite:${join(mkdtempSync(join(tmpdir(), 'atrium-pool-')), 'test.db')}`);
    pool = new SqliteWorkerPool({ path, pragmas: [], size: 1, timeoutMs: DEADLINE_MS, maxQueued: 1 });
  });
  afterEach(() => pool.close());

  it('queues up to maxQueued statements and refuses more', async () => {
    await pool.run('select 1', []);
    const running = pool.run(COUNT_TO_A_BILLION, []).catch((e: unknown) => e);
    const queued = pool.run('select 2 as two', []);
    await expect(pool.run('select 3', [])).rejects.toBeInstanceOf(QueryQueueFullError);
    expect(await running).toBeInstanceOf(QueryTimeoutError);
    expect((await queued).rows).toEqual([{ two: 2 }]);
  });

  it('reports SQL errors with their SQLite code and keeps the worker', async () => {
    await expect(pool.run('select * from nowhere', [])).rejects.toMatchObject({
      message: 'no such table: nowhere',
      code: 'SQLITE_ERROR',
    });
    expect((await pool.run('select ? as x', [7])).rows).toEqual([{ x: 7 }]);
  });
});
