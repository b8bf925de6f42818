import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';
import {
  CACHE_INDEXES,
  COVERING_INDEXES,
  NODE_TEXT_INDEX,
  NODE_TEXT_TABLE,
  SERVING_INDEXES,
} from '../storage/aiida/ddl.js';
import { type AiidaStore, openAiidaSqlite } from '../storage/aiida/open.js';
import { diskObjectStore } from './disk-objectstore.js';
import { convertLegacyArchive, readLegacyFiles } from './legacy-archive.js';
import { type ObjectStore, zipObjectStore } from './repository.js';
import { openZipEntry, readZipDirectory, type ZipEntry } from './zip.js';

export interface ArchiveMetadata {
  export_version: string;
  aiida_version?: string;
  [key: string]: unknown;
}

export interface OpenedArchive {
  path: string;
  sha256: string;
  metadata: ArchiveMetadata;
  store: AiidaStore;
  objects: ObjectStore;
  /** Where the archive's SQLite database was extracted (read-only from here on). */
  databasePath: string;
}

/** Export versions stored as zip + db.sqlite3 + repo/ (`1.0` was the pre-release name of main_0000). */
const CURRENT_FORMATS = new Set(['main_0000', 'main_0001', '1.0']);

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

async function readEntryText(path: string, entry: ZipEntry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openZipEntry(path, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readArchiveMetadata(path: string, entries: Map<string, ZipEntry>): Promise<ArchiveMetadata> {
  const entry = entries.get('metadata.json');
  if (!entry) throw new Error(`${path}: not an AiiDA archive (no metadata.json)`);
  const metadata = JSON.parse(await readEntryText(path, entry)) as ArchiveMetadata;
  if (typeof metadata.export_version !== 'string') throw new Error(`${path}: metadata.json has no export_version`);
  return metadata;
}

const COPY_INDEXES = [...SERVING_INDEXES, ...COVERING_INDEXES, ...CACHE_INDEXES];

/**
 * Adds the indexes the API needs to our private copy, then gathers planner statistics. One transaction:
 * an upgrade in place that is stopped midway must not leave the text index created but empty.
 */
function prepareCopy(path: string): void {
  const sqlite = new SqliteDatabase(path);
  try {
    sqlite.transaction(() => {
      for (const [name, table, columns] of COPY_INDEXES) {
        sqlite.exec(`create index if not exists ${name} on ${table} (${columns})`);
      }
      for (const statement of NODE_TEXT_INDEX) sqlite.exec(statement);
    })();
    sqlite.exec('analyze');
  } finally {
    sqlite.close();
  }
}

/** Caches made by an older version lack some of today's indexes: they are added once, in place. */
function upgradeCopy(path: string): void {
  const sqlite = new SqliteDatabase(path, { readonly: true });
  let missing: boolean;
  try {
    const has = sqlite.prepare('select 1 from sqlite_master where name = ?');
    missing = [...COPY_INDEXES.map(([name]) => name), NODE_TEXT_TABLE].some((name) => has.get(name) === undefined);
  } finally {
    sqlite.close();
  }
  if (missing) prepareCopy(path);
}

async function extractDatabase(archive: string, entry: ZipEntry, cacheDir: string): Promise<string> {
  const target = join(cacheDir, 'db.sqlite3');
  if (existsSync(target)) {
    upgradeCopy(target);
    return target;
  }
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(await openZipEntry(archive, entry), createWriteStream(partial));
    prepareCopy(partial);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

/** Bumped whenever the legacy conversion changes, so caches made by an older conversion are not reused. */
const LEGACY_CONVERSION = 'legacy-2';

/** Converts a legacy archive once into `<cacheDir>/` (database + loose object container). */
async function convertOnce(path: string, cacheDir: string): Promise<string> {
  const target = join(cacheDir, 'db.sqlite3');
  if (existsSync(target)) {
    upgradeCopy(target);
    return target;
  }
  const partial = `${cacheDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await convertLegacyArchive(await readLegacyFiles(path), partial);
    prepareCopy(join(partial, 'db.sqlite3'));
    mkdirSync(dirname(cacheDir), { recursive: true });
    renameSync(partial, cacheDir);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return target;
}

async function readMetadata(path: string, entries: Map<string, ZipEntry> | undefined): Promise<ArchiveMetadata> {
  if (entries) return readArchiveMetadata(path, entries);
  const read = (await readLegacyFiles(path)).get('metadata.json');
  if (!read) throw new Error(`${path}: not an AiiDA archive (no metadata.json)`);
  return JSON.parse((await read()).toString('utf8')) as ArchiveMetadata;
}

/**
 * Opens an archive in place. Current format (zip with db.sqlite3): the database is extracted once into
 * `<cacheRoot>/<sha256>/`, indexed and opened read-only; repository objects stay in the zip. Legacy
 * formats (0.1 … 0.13, zip or tar.gz) are converted once into the same cache layout.
 */
export async function openArchive(path: string, cacheRoot: string, queryTimeoutMs?: number): Promise<OpenedArchive> {
  const entries = await readZipDirectory(path).catch(() => undefined);
  const metadata = await readMetadata(path, entries);
  const sha256 = await sha256File(path);
  const cacheDir = join(cacheRoot, sha256);
  const dbEntry = entries?.get('db.sqlite3');
  if (entries && dbEntry && CURRENT_FORMATS.has(metadata.export_version)) {
    const databasePath = await extractDatabase(path, dbEntry, cacheDir);
    const store = openAiidaSqlite(databasePath, queryTimeoutMs, true);
    return { path, sha256, metadata, store, objects: zipObjectStore(path, entries), databasePath };
  }
  if (CURRENT_FORMATS.has(metadata.export_version)) throw new Error(`${path}: archive has no db.sqlite3`);
  const legacyDir = `${cacheDir}.${LEGACY_CONVERSION}`;
  const databasePath = await convertOnce(path, legacyDir);
  const store = openAiidaSqlite(databasePath, queryTimeoutMs, true);
  return { path, sha256, metadata, store, objects: diskObjectStore(join(legacyDir, 'container')), databasePath };
}
