import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf, type Migrations, migrateToLatest, openDatabase, openMigratedDatabase } from '../src/index.js';
import { describeEachDialect } from '../src/testing/index.js';

interface Db {
  counter: { name: string; n: number };
}

const migrations: Migrations = {
  '0001_counter': {
    async up(db) {
      await db.schema
        .createTable('counter')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};

describeEachDialect('database', ({ dialect, url }) => {
  it('migrates once, then upserts and reads counters', async () => {
    const database = await openMigratedDatabase<Db>(url(), 'demo', migrations);
    try {
      expect(database.dialect).toBe(dialect);
      expect(dialectOf(database.db as never)).toBe(dialect);
      expect(await migrateToLatest(database.db as never, 'demo', migrations)).toEqual([]);
      const bump = () =>
        database.db
          .insertInto('counter')
          .values({ name: 'hits', n: 1 })
          .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ n: eb('counter.n', '+', 1) })))
          .execute();
      await Promise.all([bump(), bump(), bump()]);
      const row = await database.db.selectFrom('counter').selectAll().executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'hits', n: 3 });
    } finally {
      await database.close();
    }
  });

  // Two connections in one thread cannot wait for each other on SQLite (better-sqlite3 blocks the thread);
  // concurrent starts there are separate processes, which SQLite's busy timeout serialises.
  it.skipIf(dialect === 'sqlite')('applies concurrent starts once', async () => {
    const first = openDatabase<Db>(url());
    const second = openDatabase<Db>(url());
    try {
      const applied = await Promise.all([
        migrateToLatest(first.db as never, 'demo', migrations),
        migrateToLatest(second.db as never, 'demo', migrations),
      ]);
      expect(applied.flat()).toEqual(['0001_counter']);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('reports a failing migration by name and keeps the ones before it out too', async () => {
    const broken: Migrations = {
      ...migrations,
      '0002_broken': {
        up: async (db) => {
          await sql`create tabel nope`.execute(db);
        },
      },
    };
    await expect(openMigratedDatabase(url(), 'demo', broken)).rejects.toThrow(/demo: migration 0002_broken failed/);
    const database = openDatabase<Db>(url());
    try {
      await expect(sql`select count(*) from counter`.execute(database.db)).rejects.toThrow(/counter/);
    } finally {
      await database.close();
    }
  });

  it('opens read-only for reading a database owned by another program: reads work, writes fail', async () => {
    const writable = await openMigratedDatabase<Db>(url(), 'demo', migrations);
    await writable.db.insertInto('counter').values({ name: 'kept', n: 7 }).execute();
    await writable.close();
    const readOnly = openDatabase<Db>(url(), { readOnly: true, pgSettings: { timezone: 'UTC' } });
    try {
      expect(await readOnly.db.selectFrom('counter').selectAll().execute()).toEqual([{ name: 'kept', n: 7 }]);
      await expect(readOnly.db.insertInto('counter').values({ name: 'new', n: 1 }).execute()).rejects.toThrow(
        /read-?only/i,
      );
    } finally {
      await readOnly.close();
    }
  });

  it('answers the same query correctly across a schema change (prepared statements are reused)', async () => {
    const database = await openMigratedDatabase<Db>(url(), 'demo', migrations);
    try {
      await database.db.insertInto('counter').values({ name: 'a', n: 1 }).execute();
      const read = () => sql<Record<string, unknown>>`select * from counter`.execute(database.db);
      expect((await read()).rows).toEqual([{ name: 'a', n: 1 }]);
      await sql`alter table counter add column note text`.execute(database.db);
      expect((await read()).rows).toEqual([{ name: 'a', n: 1, note: null }]);
    } finally {
      await database.close();
    }
  });

  it('keeps each service in its own migration bookkeeping', async () => {
    const database = openDatabase<Db>(url());
    try {
      const other: Migrations = { '0001_other': { up: async () => undefined } };
      expect(await migrateToLatest(database.db as never, 'one', migrations)).toEqual(['0001_counter']);
      expect(await migrateToLatest(database.db as never, 'two', other)).toEqual(['0001_other']);
      const names = async (table: string) =>
        (await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(database.db)).rows.map(
          (r) => r.name,
        );
      expect(await names('one_migration')).toEqual(['0001_counter']);
      expect(await names('two_migration')).toEqual(['0001_other']);
    } finally {
      await database.close();
    }
  });
});

describe('sqlite settings', () => {
  it('turns on WAL, foreign keys and a busy timeout', async () => {
    const { createTestDatabase } = await import('../src/testing/index.js');
    const target = await createTestDatabase('sqlite');
    const database = openDatabase<unknown>(target.url);
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await database.close();
      await target.drop();
    }
  });
});
