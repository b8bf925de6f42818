import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { openDatabase } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { diskObjectStore } from '../src/archive/disk-objectstore.js';
import { inspectSource } from '../src/inspect.js';
import { createAiidaTables } from '../src/storage/aiida/ddl.js';
import type { AiidaDatabase } from '../src/storage/aiida/schema.js';
import { FIXTURES, loadIntoPostgres, SIMPLE } from './support/fixtures.js';

const scratch = mkdtempSync(join(tmpdir(), 'atrium-inspect-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const text = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

describe('inspectSource on archives', () => {
  it('reports a current-format archive', async () => {
    const report = await inspectSource(SIMPLE, join(scratch, 'cache'));
    expect(report).toMatchObject({
      kind: 'archive',
      formatVersion: 'main_0001',
      aiidaVersion: '2.0.0a1',
      legacy: false,
      counts: { nodes: 10, links: 8, groups: 4, computers: 1, users: 1, comments: 0, logs: 0 },
    });
    expect(report.repositoryObjects).toBeGreaterThan(0);
  });

  it('reports a legacy tar.gz archive after converting it', async () => {
    const report = await inspectSource(`${FIXTURES}/export/migrate/export_0.4_simple.tar.gz`, join(scratch, 'cache'));
    expect(report).toMatchObject({ formatVersion: '0.4', legacy: true, counts: { nodes: 10, links: 8 } });
  });
});

describeEachDialect('inspectSource on an AiiDA PostgreSQL database', ({ dialect, url }) => {
  it.runIf(dialect === 'postgres')('counts rows and lists the indexes the API would like', async () => {
    const bare = openDatabase<AiidaDatabase>(url(), { poolSize: 1 });
    await createAiidaTables(bare.db, 'postgres');
    await bare.close();
    const before = await inspectSource(url(), join(scratch, 'cache'));
    expect(before.counts?.nodes).toBe(0);
    expect(before.missingIndexes).toContain('create index on db_dbnode (ctime)');
    expect(before.missingIndexes).toEqual(
      expect.arrayContaining([
        'create index on db_dbnode using gin (label public.gin_trgm_ops)',
        'create index on db_dbnode using gin (description public.gin_trgm_ops)',
      ]),
    );
  });

  it.runIf(dialect === 'postgres')('finds no missing index once the serving indexes exist', async () => {
    await loadIntoPostgres(SIMPLE, url(), mkdtempSync(join(scratch, 'pg-')));
    const report = await inspectSource(url(), join(scratch, 'cache'));
    expect(report).toMatchObject({ kind: 'postgres', counts: { nodes: 10, links: 8 }, missingIndexes: [] });
  });
});

describe('diskObjectStore (an AiiDA profile repository)', () => {
  it('reads loose objects and packed ones, compressed or not', async () => {
    const container = join(scratch, 'container');
    mkdirSync(join(container, 'loose', 'ab'), { recursive: true });
    writeFileSync(join(container, 'loose', 'ab', 'cdef'), 'loose content');
    mkdirSync(join(container, 'packs'), { recursive: true });
    const raw = Buffer.from('plain packed');
    const compressed = deflateSync(Buffer.from('compressed packed'));
    writeFileSync(join(container, 'packs', '0'), Buffer.concat([raw, compressed]));
    const index = new SqliteDatabase(join(container, 'packs.idx'));
    index.exec(
      'create table db_object (id integer primary key, hashkey text, compressed boolean, size integer, offset integer, length integer, pack_id integer)',
    );
    const insert = index.prepare(
      'insert into db_object (hashkey, compressed, size, offset, length, pack_id) values (?, ?, ?, ?, ?, 0)',
    );
    insert.run('11', 0, raw.length, 0, raw.length);
    insert.run('22', 1, 17, raw.length, compressed.length);
    index.close();
    const store = diskObjectStore(container);
    expect([store.has('abcdef'), store.has('11'), store.has('22'), store.has('33')]).toEqual([true, true, true, false]);
    expect([store.size('abcdef'), store.size('22')]).toEqual([13, 17]);
    expect(await text(await store.open('abcdef'))).toBe('loose content');
    expect(await text(await store.open('11'))).toBe('plain packed');
    expect(await text(await store.open('22'))).toBe('compressed packed');
    await expect(store.open('33')).rejects.toThrow('not in the container');
  });
});
