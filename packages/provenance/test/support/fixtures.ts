import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { buildProvenanceApp } from '../../src/app.js';
import { openArchive } from '../../src/archive/open-archive.js';
import { openZipEntry, readZipDirectory } from '../../src/archive/zip.js';
import { provenanceConfigSchema } from '../../src/config.js';
import { copyAiidaRows } from '../../src/storage/aiida/copy.js';
import { createAiidaTables, createServingIndexes } from '../../src/storage/aiida/ddl.js';
import type { AiidaDatabase } from '../../src/storage/aiida/schema.js';

export const FIXTURES = '/work/shared/fixtures/aiida';
export const SIMPLE = `${FIXTURES}/export/migrate/export_main_0001_simple.aiida`;
export const ADD = `${FIXTURES}/calcjob/arithmetic.add.aiida`;
export const GRAPH = `${FIXTURES}/graphs/graph1.aiida`;

/**
 * Loads an archive into a PostgreSQL schema in AiiDA's layout (JSONB, timestamptz) and unpacks its
 * repository objects into a loose disk-objectstore container, as an AiiDA profile would hold them.
 */
export async function loadIntoPostgres(archivePath: string, url: string, scratch: string): Promise<string> {
  const archive = await openArchive(archivePath, join(scratch, 'cache'));
  const writer = openDatabase<AiidaDatabase>(url, { poolSize: 1 });
  try {
    await createAiidaTables(writer.db, 'postgres');
    await copyAiidaRows(archive.store, writer.db);
    await createServingIndexes(writer.db);
  } finally {
    await archive.store.close();
    await writer.close();
  }
  const container = join(scratch, 'container');
  for (const [name, entry] of await readZipDirectory(archivePath)) {
    const key = name.slice('repo/'.length);
    if (!name.startsWith('repo/') || !key) continue;
    const dir = join(container, 'loose', key.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    await pipeline(await openZipEntry(archivePath, entry), createWriteStream(join(dir, key.slice(2))));
  }
  return container;
}

export interface RunningApi {
  base: string;
  app: FastifyInstance;
  stop(): Promise<void>;
}

/** Serves `archive` over HTTP: directly (sqlite) or after loading it into the test's PostgreSQL schema. */
export async function serveArchive(
  archive: string,
  dialect: 'sqlite' | 'postgres',
  url?: string,
  aiidaVersion?: string,
): Promise<RunningApi> {
  const scratch = mkdtempSync(join(tmpdir(), 'atrium-prov-'));
  const location = dialect === 'postgres' && url ? url : archive;
  const repository = dialect === 'postgres' && url ? await loadIntoPostgres(archive, url, scratch) : undefined;
  return serveSources([{ name: 'default', location, ...(repository ? { repository } : {}) }], scratch, aiidaVersion);
}

/** Serves several sources at once from one app; `scratch` (the data directory) is removed on stop. */
export async function serveSources(
  sources: { name: string; location: string; repository?: string }[],
  scratch: string,
  aiidaVersion?: string,
): Promise<RunningApi> {
  const config = provenanceConfigSchema.parse({ sources, ...(aiidaVersion ? { aiidaVersion } : {}) });
  const app = await buildProvenanceApp(config, { logger: silentLogger, dataDir: scratch, accessLog: false });
  const base = await listen(app);
  return {
    base,
    app,
    stop: async () => {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

export async function getJson(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    response,
    status: response.status,
    text,
    body: response.headers.get('content-type') === 'application/json' && text ? JSON.parse(text) : undefined,
  };
}
