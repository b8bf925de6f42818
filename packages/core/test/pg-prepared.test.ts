import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PreparingClient } from '../src/db/pg-prepared.js';
import { postgresAvailable, testPgUrl } from '../src/testing/index.js';

const runPostgres = await postgresAvailable();

/** The statements this session holds prepared, read without parameters so the read itself is not one. */
async function prepared(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    'select statement from pg_prepared_statements order by prepare_time',
  );
  return rows.map((row) => row.statement);
}

describe.skipIf(!runPostgres)('PreparingClient', () => {
  let client: PreparingClient;
  const open = async (limits: { perConnection?: number; maxAgeMs?: number } = {}) => {
    client = new PreparingClient({ connectionString: testPgUrl, preparedStatements: limits });
    await client.connect();
    await client.query('create temporary table item (id int primary key, label text)');
    await client.query("insert into item select n, 'item ' || n from generate_series(1, 20) as n");
  };
  afterEach(async () => {
    await client.end();
  });

  it('prepares a statement with parameters once and reuses it, in promise and callback form', async () => {
    await open();
    const text = 'select label from item where id = $1';
    expect((await client.query(text, [3])).rows).toEqual([{ label: 'item 3' }]);
    const viaCallback = await new Promise((resolve, reject) =>
      client.query(text, [4], (error: Error | null, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result.rows),
      ),
    );
    expect(viaCallback).toEqual([{ label: 'item 4' }]);
    const arrays = await client.query({ text, values: [5], rowMode: 'array' });
    expect(arrays.rows).toEqual([['item 5']]);
    expect(await prepared(client)).toEqual([text]);
  });

  it('leaves statements without parameters unprepared', async () => {
    await open();
    await client.query('select count(*) from item');
    await client.query('select count(*) from item', []);
    expect(await prepared(client)).toEqual([]);
  });

  it('keeps at most perConnection statements, deallocating the least recently used', async () => {
    await open({ perConnection: 3 });
    const texts = [1, 2, 3, 4].map((n) => `select label from item where id = $1 and ${n} = ${n}`);
    for (const text of texts.slice(0, 3)) await client.query(text, [1]);
    await client.query(texts[0] as string, [1]);
    await client.query(texts[3] as string, [1]);
    expect((await prepared(client)).sort()).toEqual([texts[0], texts[2], texts[3]].sort());
  });

  it('prepares a statement again once it is older than maxAgeMs, so its plan sees the table as it is now', async () => {
    await open({ maxAgeMs: 50 });
    const text = 'select label from item where id = $1';
    await client.query(text, [1]);
    const [before] = (await client.query('select name from pg_prepared_statements')).rows;
    await sleep(80);
    await client.query(text, [2]);
    const after = (await client.query('select name from pg_prepared_statements')).rows;
    expect(after).toHaveLength(1);
    expect(after[0]).not.toEqual(before);
  });

  it('answers again after the server dropped its statements (DISCARD ALL, a pooler switching backends)', async () => {
    await open();
    const text = 'select label from item where id = $1';
    await client.query(text, [1]);
    await client.query('deallocate all');
    expect((await client.query(text, [6])).rows).toEqual([{ label: 'item 6' }]);
    expect(await prepared(client)).toEqual([text]);
  });

  it('answers again when a table a `select *` reads gained a column, outside a transaction', async () => {
    await open();
    const text = 'select * from item where id = $1';
    await client.query(text, [1]);
    await client.query('alter table item add column note text');
    expect((await client.query(text, [2])).rows).toEqual([{ id: 2, label: 'item 2', note: null }]);
  });

  it('inside a transaction, reports the stale statement and prepares it afresh for the next call', async () => {
    await open();
    const text = 'select * from item where id = $1';
    await client.query(text, [1]);
    await client.query('begin');
    await client.query('alter table item add column note text');
    await expect(client.query(text, [2])).rejects.toMatchObject({ code: '0A000' });
    await client.query('rollback');
    expect((await client.query(text, [2])).rows).toEqual([{ id: 2, label: 'item 2' }]);
  });
});
