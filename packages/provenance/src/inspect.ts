import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { openArchive } from './archive/open-archive.js';
import { readZipDirectory } from './archive/zip.js';
import {
  COVERING_INDEXES,
  PATTERN_INDEXES,
  SERVING_INDEXES,
  TRIGRAM_EXTENSION,
  TRIGRAM_INDEXES,
  trigramIndex,
} from './storage/aiida/ddl.js';
import { type AiidaStore, openAiidaPostgres } from './storage/aiida/open.js';

export interface SourceReport {
  location: string;
  kind: 'archive' | 'postgres';
  formatVersion?: string;
  aiidaVersion?: string;
  bytes?: number;
  repositoryObjects?: number;
  /** Legacy (0.x) archives are converted once into the cache before they are served. */
  legacy?: boolean;
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
  const has = (table: string, test: (definition: string) => boolean) =>
    rows.some((r) => r.tablename === table && test(r.indexdef.replace(/\s+/g, ' ')));
  // LIKE prefix filters (`node_type=like="data%"`) need the pattern operator class on a non-C collation.
  const plain = [...SERVING_INDEXES, ...COVERING_INDEXES, ...PATTERN_INDEXES]
    .filter(([, table, columns]) => !has(table, (d) => d.includes(`(${columns})`)))
    .map(([, table, columns]) => `create index on ${table} (${columns})`);
  // Substring filters (`label=like="%…%"`) scan every row without a trigram index.
  const trigram = TRIGRAM_INDEXES.filter(
    ([, table, column]) => !has(table, (d) => d.includes('gin_trgm_ops') && d.includes(`(${column} `)),
  ).map(([, table, column]) => trigramIndex(table, column));
  const { rows: extension } = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(store.db);
  return [...plain, ...(trigram.length > 0 && extension.length === 0 ? [TRIGRAM_EXTENSION] : []), ...trigram];
}

/** `atrium provenance inspect`: format, size and row counts of an archive or an AiiDA PostgreSQL database. */
export async function inspectSource(location: string, cacheRoot: string): Promise<SourceReport> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const store = openAiidaPostgres(location, 1);
    try {
      return {
        location,
        kind: 'postgres',
        counts: await countRows(store),
        missingIndexes: await missingIndexes(store),
      };
    } finally {
      await store.close();
    }
  }
  const entries = await readZipDirectory(location).catch(() => undefined);
  const archive = await openArchive(location, cacheRoot);
  const report: SourceReport = {
    location,
    kind: 'archive',
    formatVersion: archive.metadata.export_version,
    aiidaVersion: archive.metadata.aiida_version,
    bytes: statSync(location).size,
    legacy: !entries?.has('db.sqlite3'),
  };
  if (entries) report.repositoryObjects = [...entries.keys()].filter((n) => /^repo\/./.test(n)).length;
  try {
    report.counts = await countRows(archive.store);
  } finally {
    await archive.store.close();
  }
  return report;
}
