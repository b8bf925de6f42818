import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive } from '../src/archive/open-archive.js';
import { ADD, FIXTURES } from './support/fixtures.js';

const scratch = mkdtempSync(join(tmpdir(), 'atrium-cache-upgrade-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const objects = (path: string) => {
  const sqlite = new SqliteDatabase(path, { readonly: true });
  try {
    return sqlite
      .prepare("select name from sqlite_master where name like 'atrium_%' and type in ('index', 'table')")
      .all()
      .map((row) => (row as { name: string }).name)
      .sort();
  } finally {
    sqlite.close();
  }
};

/** Rows of the node text index whose label has a dot (every fixture has such labels). */
const dottedLabels = (path: string) => {
  const sqlite = new SqliteDatabase(path, { readonly: true });
  try {
    return (sqlite.prepare("select count(*) as n from atrium_node_text where label glob '*.*'").get() as { n: number })
      .n;
  } finally {
    sqlite.close();
  }
};

describe('a cache copy made by an older version gets the missing indexes when opened', () => {
  it.each([ADD, `${FIXTURES}/export/migrate/export_0.4_simple.aiida`])('%s', async (file) => {
    const cache = join(scratch, String(Math.random()).slice(2));
    const first = await openArchive(file, cache);
    await first.store.close();
    const complete = objects(first.databasePath);
    expect(complete).toEqual(
      expect.arrayContaining(['atrium_node_ctime_types', 'atrium_node_label', 'atrium_node_text']),
    );
    expect(dottedLabels(first.databasePath)).toBeGreaterThan(0);

    const older = new SqliteDatabase(first.databasePath);
    older.exec('drop index atrium_node_ctime_types; drop index atrium_node_label; drop table atrium_node_text');
    older.close();
    expect(objects(first.databasePath)).not.toContain('atrium_node_label');

    const again = await openArchive(file, cache);
    try {
      expect(again.databasePath).toBe(first.databasePath);
      expect(objects(again.databasePath)).toEqual(complete);
      expect(dottedLabels(again.databasePath)).toBeGreaterThan(0);
    } finally {
      await again.store.close();
    }
  });
});

it('an upgrade that fails midway leaves the copy as it was, and the next open completes it', async () => {
  const cache = join(scratch, 'interrupted');
  const first = await openArchive(ADD, cache);
  await first.store.close();
  const complete = objects(first.databasePath);
  const older = new SqliteDatabase(first.databasePath);
  // The text index's rebuild reads `description`: renamed away, the upgrade fails after creating the table.
  older.exec('drop index atrium_node_label; drop table atrium_node_text');
  older.exec('alter table db_dbnode rename column description to described');
  older.close();
  const before = objects(first.databasePath);
  await expect(openArchive(ADD, cache)).rejects.toThrow(/description/);
  expect(objects(first.databasePath)).toEqual(before);

  const restored = new SqliteDatabase(first.databasePath);
  restored.exec('alter table db_dbnode rename column described to description');
  restored.close();
  const again = await openArchive(ADD, cache);
  await again.store.close();
  expect(objects(again.databasePath)).toEqual(complete);
  expect(dottedLabels(again.databasePath)).toBeGreaterThan(0);
});
