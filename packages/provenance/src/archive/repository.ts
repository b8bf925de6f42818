import type { Readable } from 'node:stream';
import { openZipEntry, type ZipEntry } from './zip.js';

/** Content-addressed file objects of a node repository (keys are sha256 hex digests). */
export interface ObjectStore {
  has(key: string): boolean;
  size(key: string): number | undefined;
  open(key: string): Promise<Readable>;
  close?(): void;
}

/** The `repo/<key>` members of a current-format archive, streamed from the zip on demand. */
export function zipObjectStore(path: string, entries: Map<string, ZipEntry>): ObjectStore {
  const entry = (key: string) => entries.get(`repo/${key}`);
  return {
    has: (key) => entry(key) !== undefined,
    size: (key) => entry(key)?.size,
    open: async (key) => {
      const found = entry(key);
      if (!found) throw new Error(`object ${key} is not in the archive`);
      return openZipEntry(path, found);
    },
  };
}

/** A source without repository content (e.g. a database whose object store was not configured). */
export const emptyObjectStore: ObjectStore = {
  has: () => false,
  size: () => undefined,
  open: async (key) => {
    throw new Error(`object ${key} is not available`);
  },
};
