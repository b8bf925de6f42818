import type { Kysely, Selectable } from 'kysely';
import type { ArchiveTable, ProvenanceDatabase } from './schema.js';

export type ArchiveRecord = Selectable<ArchiveTable>;

/** Records (or refreshes) a loaded archive, keyed by its content hash. */
export async function recordArchive(db: Kysely<ProvenanceDatabase>, archive: ArchiveRecord): Promise<void> {
  await db
    .insertInto('archive')
    .values(archive)
    .onConflict((oc) =>
      oc
        .column('sha256')
        .doUpdateSet({ path: archive.path, node_count: archive.node_count, loaded_at: archive.loaded_at }),
    )
    .execute();
}

export async function listArchives(db: Kysely<ProvenanceDatabase>): Promise<ArchiveRecord[]> {
  return db.selectFrom('archive').selectAll().orderBy('loaded_at', 'desc').orderBy('sha256').execute();
}
