import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect, silentLogger } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { addJournalledUsage, usageOfKey } from '../src/storage/usage.js';
import { type ServedEntry, UsageJournal } from '../src/storage/usage-journal.js';
import { UsageRecorder } from '../src/tenancy/usage-recorder.js';
import { seedTenant, T0, withDatabase } from './support/tenancy.js';

const HOUR = 3_600_000;

describeEachDialect('usage journal', ({ url }) => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const journalDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-journal-'));
    dirs.push(dir);
    return dir;
  };

  async function keyOf(db: Kysely<InferenceDatabase>) {
    const tenant = await seedTenant(db);
    return (await tenant.key({ alias: 'journal' })).key.id;
  }
  const history = async (db: Kysely<InferenceDatabase>, keyId: string) =>
    (await usageOfKey(db, keyId, 0, T0 + 10 * HOUR)).map((r) => [r.hour, r.model, r.requests, r.prompt_tokens]);

  it('adds a dead process’s entries exactly once, even those its last flush committed without forgetting', async () => {
    await withDatabase(url(), async (db) => {
      const keyId = await keyOf(db);
      const dir = journalDir();
      const dead = UsageJournal.create(dir);
      for (let i = 0; i < 3; i++) dead.append([[keyId, 'a/m', T0 + i, 10, 1, 11]]);
      // Committed in the database, then the process died before dropping the entries from its journal.
      expect(await addJournalledUsage(db, dead.id, (mark) => dead.after(mark))).toBe(3);
      dead.append([[keyId, 'a/m', T0 + HOUR, 20, 2, 22]]);
      dead.append([[keyId, 'a/n', T0 + HOUR, 30, 3, 33]]);
      dead.close(false);

      const recorder = await UsageRecorder.open(db, silentLogger, dir);
      await recorder.close();
      expect(await history(db, keyId)).toEqual([
        [T0 - (T0 % HOUR), 'a/m', 3, 30],
        [T0 - (T0 % HOUR) + HOUR, 'a/m', 1, 20],
        [T0 - (T0 % HOUR) + HOUR, 'a/n', 1, 30],
      ]);
      expect(readdirSync(dir)).toEqual([]);
      expect(await db.selectFrom('usage_journal_mark').selectAll().execute()).toEqual([]);
    });
  });

  it('adds a journal longer than one batch in full, from a dead process and from a live one', async () => {
    await withDatabase(url(), async (db) => {
      const keyId = await keyOf(db);
      const dir = journalDir();
      const entries = Array.from({ length: 10_003 }, (_, i): ServedEntry => [keyId, 'a/m', T0, 1, 0, i % 2]);
      const dead = UsageJournal.create(dir);
      dead.append(entries);
      dead.close(false);
      const recorder = await UsageRecorder.open(db, silentLogger, dir);
      for (const entry of entries) recorder.record(...entry);
      await recorder.close();
      expect(await history(db, keyId)).toEqual([[T0 - (T0 % HOUR), 'a/m', 20_006, 20_006]]);
    });
  });

  it('leaves the journal of a live process alone', async () => {
    await withDatabase(url(), async (db) => {
      const keyId = await keyOf(db);
      const dir = journalDir();
      const live = UsageJournal.create(dir);
      live.append([[keyId, 'a/m', T0, 10, 1, 11]]);
      const recorder = await UsageRecorder.open(db, silentLogger, dir);
      await recorder.close();
      expect(await history(db, keyId)).toEqual([]);
      expect(live.after(0).rows).toHaveLength(1);
      live.close(true);
    });
  });

  it('a recorder adds its entries at each flush and removes its journal when it closes', async () => {
    await withDatabase(url(), async (db) => {
      const keyId = await keyOf(db);
      const dir = journalDir();
      const recorder = await UsageRecorder.open(db, silentLogger, dir);
      recorder.record(keyId, 'a/m', T0, 10, 1, 11);
      await recorder.flush();
      recorder.record(keyId, 'a/m', T0, 5, 1, 6);
      await recorder.flush();
      await recorder.flush();
      expect(readdirSync(dir)).toHaveLength(2); // the journal and its WAL
      await recorder.close();
      expect(await history(db, keyId)).toEqual([[T0 - (T0 % HOUR), 'a/m', 2, 15]]);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it('without a usable directory the recorder still batches in memory', async () => {
    await withDatabase(url(), async (db) => {
      const keyId = await keyOf(db);
      const recorder = await UsageRecorder.open(db, silentLogger, join(journalDir(), 'missing', 'journal'));
      recorder.record(keyId, 'a/m', T0, 10, 1, 11);
      await recorder.close();
      expect(await history(db, keyId)).toEqual([[T0 - (T0 % HOUR), 'a/m', 1, 10]]);
    });
  });
});
