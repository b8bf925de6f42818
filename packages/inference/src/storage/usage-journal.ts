import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { UsageRow } from './usage.js';

const SUFFIX = '.journal';
/** A journal file without its table this old belonged to a process that died while creating it. */
const UNINITIALISED_GRACE_MS = 60_000;

/** The journal directory of one database under a data directory: a dead process's journal only goes to its own database. */
export const journalDirOf = (dataDir: string, databaseUrl: string): string =>
  join(dataDir, `usage-journal-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16)}`);

/** One served request: key, model, time, prompt and completion tokens, micro-credits. */
export type ServedEntry = [
  keyId: string,
  model: string,
  at: number,
  prompt: number,
  completion: number,
  credits: number,
];

/** Entries summed per batch, so a journal that grew during a database outage never blocks the event loop long. */
const BATCH = 10_000;

/** Up to `BATCH` entries of a journal after a sequence number, as key × model × hour counters, and the last of them. */
export interface JournalTail {
  rows: UsageRow[];
  through: number;
}

/**
 * One gateway process's local journal of served requests: a SQLite file in WAL mode under an exclusive
 * lock, so an entry survives kill -9 once `append` returns (not a power loss: no fsync), and the file stays
 * locked for as long as its process lives. The lock is how another process tells a dead journal from a
 * live one: the operating system drops it when the process dies. Without a directory the journal lives in
 * memory and only batches.
 */
export class UsageJournal {
  private readonly insert: Database.Transaction<(entries: readonly ServedEntry[]) => void>;
  private readonly tail: Database.Statement<[number, number], UsageRow>;
  private readonly batchEnd: Database.Statement<[number, number], { seq: number | null }>;
  private readonly last: Database.Statement<[], { seq: number | null }>;
  private readonly remove: Database.Statement<[number]>;

  private constructor(
    private readonly db: Database.Database,
    readonly id: string,
    private readonly path: string | undefined,
  ) {
    const insert = db.prepare<ServedEntry>(
      'insert into served (key_id, model, at, prompt_tokens, completion_tokens, credits) values (?, ?, ?, ?, ?, ?)',
    );
    this.insert = db.transaction((entries: readonly ServedEntry[]) => {
      for (const entry of entries) insert.run(...entry);
    });
    this.tail = db.prepare(`
      select key_id, model, at - at % 3600000 as hour, count(*) as requests, sum(prompt_tokens) as prompt_tokens,
          sum(completion_tokens) as completion_tokens, sum(credits) as credits
        from served where seq > ? and seq <= ? group by key_id, model, hour`);
    this.batchEnd = db.prepare(
      'select max(seq) as seq from (select seq from served where seq > ? order by seq limit ?)',
    );
    this.last = db.prepare('select max(seq) as seq from served');
    this.remove = db.prepare('delete from served where seq <= ?');
  }

  /** A new journal in `dir` (created by the caller), or in memory. */
  static create(dir: string | undefined): UsageJournal {
    const id = randomUUID();
    const path = dir === undefined ? undefined : join(dir, `${id}${SUFFIX}`);
    const db = lockedDatabase(path ?? ':memory:', 5_000);
    db.exec(`create table served (
      seq integer primary key autoincrement, key_id text not null, model text not null, at integer not null,
      prompt_tokens integer not null, completion_tokens integer not null, credits integer not null)`);
    return new UsageJournal(db, id, path);
  }

  /** The journals in `dir` whose processes have died, each locked for the caller; close them when done. */
  static *orphans(dir: string, now: number): Generator<UsageJournal> {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(SUFFIX)) continue;
      const path = join(dir, name);
      let db: Database.Database;
      try {
        db = lockedDatabase(path, 0);
      } catch {
        continue; // locked: its process is alive (or another process is replaying it)
      }
      if (db.prepare("select 1 from sqlite_master where name = 'served'").get()) {
        yield new UsageJournal(db, name.slice(0, -SUFFIX.length), path);
        continue;
      }
      db.close();
      if (now - statSync(path).mtimeMs > UNINITIALISED_GRACE_MS) removeFiles(path);
    }
  }

  /** Journals served requests, in one transaction. */
  append(entries: readonly ServedEntry[]): void {
    this.insert(entries);
  }

  /** The next batch of entries after `seq`, summed per key, model and hour. */
  after(seq: number): JournalTail {
    const through = this.batchEnd.get(seq, BATCH)?.seq ?? seq;
    return { rows: this.tail.all(seq, through), through };
  }

  /** The sequence number of the last entry kept; 0 when the journal is empty. */
  latest(): number {
    return this.last.get()?.seq ?? 0;
  }

  /** Drops the entries the database has (up to `seq`); sequence numbers are never reused. */
  forget(seq: number): void {
    this.remove.run(seq);
  }

  /** Closes the journal; `discard` deletes its file (everything in it is in the database). */
  close(discard: boolean): void {
    this.db.close();
    if (discard && this.path) removeFiles(this.path);
  }
}

function lockedDatabase(path: string, timeout: number): Database.Database {
  const db = new Database(path, { timeout });
  try {
    // Exclusive before WAL: the WAL index then lives in this process's memory and the lock is never released.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    // Reading takes the lock at once, so a live journal is refused here rather than at the first entry.
    db.prepare('select count(*) from sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const removeFiles = (path: string) => {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
};
