import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { type Database, parseDatabaseUrl } from '@atrium/core';
import { sql } from 'kysely';
import type { BenchDatabase } from './schema.js';

const run = promisify(execFile);

export interface BackupOptions {
  directory: string;
  compress: boolean;
  now?: number;
}

/**
 * Writes a consistent snapshot of the database: SQLite's `VACUUM INTO` (readers and writers go on), or
 * `pg_dump` of the service's schema for PostgreSQL. Returns the file written (gzipped when asked).
 */
export async function snapshotDatabase(database: Database<BenchDatabase>, url: string, options: BackupOptions) {
  mkdirSync(options.directory, { recursive: true });
  const stamp = new Date(options.now ?? Date.now()).toISOString().replace(/[:.]/g, '-');
  const target = parseDatabaseUrl(url);
  let file: string;
  if (target.dialect === 'sqlite') {
    file = join(options.directory, `bench-${stamp}.db`);
    await sql`vacuum into ${file}`.execute(database.db);
  } else {
    file = join(options.directory, `bench-${stamp}.sql`);
    const schema = target.schema ? ['--schema', target.schema] : [];
    await run('pg_dump', ['--dbname', target.connectionString, '--file', file, ...schema]);
  }
  if (!options.compress) return file;
  await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`));
  rmSync(file);
  return `${file}.gz`;
}

/** Hands a snapshot to the configured push program (argument vector, no shell). */
export async function pushSnapshot(command: string, file: string): Promise<void> {
  await run(command, [file]);
}
