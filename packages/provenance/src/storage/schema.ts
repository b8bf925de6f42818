/** Kysely table types of the provenance service's own database (the index of loaded archives). */
export interface ArchiveTable {
  /** sha256 of the archive file */
  sha256: string;
  path: string;
  format_version: string;
  node_count: number;
  loaded_at: number;
}

export interface ProvenanceDatabase {
  archive: ArchiveTable;
}
