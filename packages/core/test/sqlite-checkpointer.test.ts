import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-checkpoint-'));
  dirs.push(dir);
  const path = join(dir, 'db.sqlite');
  return { path, database: openDatabase<{ blob: { n: number; data: string } }>(`sqlite:${path}`) };
}

describe('SQLite checkpoints in a worker thread', () => {
  it('copies committed pages into the database file off the event loop, well before 1,000 pages', async () => {
    const { path, database } = fileDatabase();
    try {
      const { db } = database;
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]).toEqual({
        wal_autocheckpoint: 0,
      });
      await sql`create table blob (n integer primary key, data text not null)`.execute(db);
      // 2 MB in 40 commits: half of what SQLite's own automatic checkpoint waits for.
      for (let n = 0; n < 40; n++)
        await db
          .insertInto('blob')
          .values({ n, data: 'x'.repeat(50_000) })
          .execute();
      const deadline = Date.now() + 5000;
      while (statSync(path).size < 1_500_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(path).size).toBeGreaterThan(1_500_000);
    } finally {
      await database.close();
    }
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('is not started for read-only and in-memory databases', async () => {
    const memory = openDatabase(`sqlite::memory:`);
    try {
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(memory.db)).rows[0]).toEqual(
        {
          wal_autocheckpoint: 1000,
        },
      );
    } finally {
      await memory.close();
    }
    const { path, database } = fileDatabase();
    await database.close();
    const readOnly = openDatabase(`sqlite:${path}`, { readOnly: true });
    try {
      expect(
        (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(readOnly.db)).rows[0],
      ).toEqual({
        wal_autocheckpoint: 1000,
      });
    } finally {
      await readOnly.close();
    }
  });
});
