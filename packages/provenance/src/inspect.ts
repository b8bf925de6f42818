import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { openArchive, readArchiveMetadata } from './archive/open-archive.js';
import { readZipDirectory } from './archive/zip.js';
import { SERVING_INDEXES } from './storage/aiida/ddl.js';
import { type AiidaStore, openAiidaPostgres } from './storage/aiida/open.js';

export interface SourceReport {
  location: string;
  kind: 'archive' | 'postgres';
  formatVersion?: string;
  aiidaVersion?: string;
  bytes?: number;
  repositoryObjects?: number;
  /** Legacy (0.x) archives are recognised but not served. */
  servable: boolean;
  counts?: Record<string, number>;
  /** PostgreSQL only: indexes the API's queries want that the database lacks (never created for you). */
  missingIndexes?: string[];
}

const COUNTED = {
  nodes: 'db_dbnode',
  links: 'db_dblink',
  groups: 'db_dbgroup',
  computers: 'db_dbcomputer',
  users: 'db_dbuser',
  comments: 'db_dbcomment',
  logs: 'db_dblog',
};

async function countRows(store: AiidaStore): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(COUNTED)) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

async function missingIndexes(store: AiidaStore): Promise<string[]> {
  const { rows } = await sql<{ tablename: string; indexdef: string }>`
    select tablename, indexdef from pg_indexes where schemaname = current_schema()`.execute(store.db);
  return SERVING_INDEXES.filter(
    ([, table, columns]) =>
      !rows.some((r) => r.tablename === table && r.indexdef.replace(/\s+/g, ' ').includes(`(${columns})`)),
  ).map(([, table, columns]) => `create index on ${table} (${columns})`);
}

/** `atrium provenance inspect`: format, size and row counts of an archive or an AiiDA PostgreSQL database. */
export async function inspectSource(location: string, cacheRoot: string): Promise<SourceReport> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const store = openAiidaPostgres(location, 1);
    try {
      return {
        location,
        kind: 'postgres',
        servable: true,
        counts: await countRows(store),
        missingIndexes: await missingIndexes(store),
      };
    } finally {
      await store.close();
    }
  }
  const entries = await readZipDirectory(location);
  const metadata = await readArchiveMetadata(location, entries);
  const report: SourceReport = {
    location,
    kind: 'archive',
    formatVersion: metadata.export_version,
    aiidaVersion: metadata.aiida_version,
    bytes: statSync(location).size,
    repositoryObjects: [...entries.keys()].filter((name) => name.startsWith('repo/') && name.length > 5).length,
    servable: entries.has('db.sqlite3'),
  };
  if (!report.servable) return report;
  const archive = await openArchive(location, cacheRoot);
  try {
    report.counts = await countRows(archive.store);
  } finally {
    await archive.store.close();
  }
  return report;
}
