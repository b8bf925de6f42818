import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

export const testPgUrl = process.env.ATRIUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function probePostgres(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

let availability: Promise<boolean> | undefined;

/** Whether the PostgreSQL half of the suite runs. Under CI=true an unreachable server is an error. */
export function postgresAvailable(): Promise<boolean> {
  availability ??= probePostgres(testPgUrl).then((failure) => {
    if (failure === undefined) return true;
    const line = `PostgreSQL at ${testPgUrl} is not reachable (${failure})`;
    if (process.env.CI === 'true') throw new Error(`${line}; CI=true requires it (set ATRIUM_TEST_PG_URL)`);
    console.warn(`WARNING: ${line}: skipping the PostgreSQL half of the storage tests`);
    return false;
  });
  return availability;
}

export interface TestDatabase {
  dialect: TestDialect;
  /** A `sqlite:` or `postgres://…?schema=…` URL nobody else uses. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temp SQLite file, or a new schema in the test PostgreSQL server. */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-test-'));
    return {
      dialect,
      url: `sqlite:${join(dir, 'test.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(testPgUrl);
  url.searchParams.set('schema', schema);
  return {
    dialect,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: testPgUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}
