import { openDatabase } from '@atrium/core';
import {
  type AiidaDatabase,
  copyAiidaRows,
  createAiidaTables,
  createServingIndexes,
  openArchive,
} from '@atrium/provenance';

/** Copies an `.aiida` archive into the (empty, existing) PostgreSQL schema `url` names, as an AiiDA profile. */
export async function loadArchiveIntoPostgres(archivePath: string, url: string, cacheDir: string): Promise<void> {
  const archive = await openArchive(archivePath, cacheDir);
  const target = openDatabase<AiidaDatabase>(url, { poolSize: 1 });
  try {
    await createAiidaTables(target.db, 'postgres');
    await copyAiidaRows(archive.store, target.db);
    await createServingIndexes(target.db);
  } finally {
    await archive.store.close();
    await target.close();
  }
}
