import { diskObjectStore } from './archive/disk-objectstore.js';
import { openArchive } from './archive/open-archive.js';
import { emptyObjectStore } from './archive/repository.js';
import type { SourceConfig } from './config.js';
import type { Source } from './source.js';
import { openAiidaPostgres } from './storage/aiida/open.js';

export interface OpenedSource extends Source {
  /** Archive sources only: what the archive index records. */
  archive?: { path: string; sha256: string; formatVersion: string };
}

/** Opens an archive (extracting its database to the cache once) or connects to an AiiDA PostgreSQL database. */
export async function openSource(
  config: SourceConfig,
  cacheRoot: string,
  queryTimeoutMs?: number,
): Promise<OpenedSource> {
  if (/^postgres(ql)?:\/\//.test(config.location)) {
    const store = openAiidaPostgres(config.location, undefined, queryTimeoutMs);
    const objects = config.repository ? diskObjectStore(config.repository) : emptyObjectStore;
    const close = async () => {
      objects.close?.();
      await store.close();
    };
    return { name: config.name, store, objects, close };
  }
  const archive = await openArchive(config.location, cacheRoot, queryTimeoutMs);
  return {
    name: config.name,
    store: archive.store,
    objects: archive.objects,
    close: async () => {
      archive.objects.close?.();
      await archive.store.close();
    },
    archive: { path: archive.path, sha256: archive.sha256, formatVersion: archive.metadata.export_version },
  };
}
