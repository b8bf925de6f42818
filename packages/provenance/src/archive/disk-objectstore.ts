import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createInflate } from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import type { ObjectStore } from './repository.js';

interface PackedObject {
  pack_id: number;
  offset: number;
  length: number;
  size: number;
  compressed: number;
}

/**
 * A disk-objectstore container (AiiDA's repository of a PostgreSQL profile): loose objects under
 * `loose/<2 hex>/<rest>`, packed ones located through `packs.idx` (zlib-compressed when flagged).
 */
export function diskObjectStore(container: string): ObjectStore {
  const indexPath = join(container, 'packs.idx');
  const index = existsSync(indexPath)
    ? new SqliteDatabase(indexPath, { readonly: true, fileMustExist: true })
    : undefined;
  const lookup = index?.prepare<[string], PackedObject>(
    'select pack_id, offset, length, size, compressed from db_object where hashkey = ?',
  );
  const loose = (key: string) => join(container, 'loose', key.slice(0, 2), key.slice(2));
  const looseSize = (key: string) => {
    try {
      return statSync(loose(key)).size;
    } catch {
      return undefined;
    }
  };
  return {
    has: (key) => looseSize(key) !== undefined || lookup?.get(key) !== undefined,
    size: (key) => looseSize(key) ?? lookup?.get(key)?.size,
    open: async (key) => {
      if (looseSize(key) !== undefined) return createReadStream(loose(key));
      const packed = lookup?.get(key);
      if (!packed) throw new Error(`object ${key} is not in the container`);
      if (packed.length === 0) return Readable.from([]);
      const raw = createReadStream(join(container, 'packs', String(packed.pack_id)), {
        start: packed.offset,
        end: packed.offset + packed.length - 1,
      });
      return packed.compressed ? pipeline(raw, createInflate(), () => undefined) : raw;
    },
    close: () => index?.close(),
  };
}
