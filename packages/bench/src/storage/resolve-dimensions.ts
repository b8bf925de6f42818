import type { Kysely } from 'kysely';
import type { NameId } from '../wire/slug.js';
import { chunks } from './chunks.js';
import { insertDimensions, unarchive } from './dimensions.js';
import type { DimensionColumns, DimensionTableName } from './schema.js';
import type { Db, Dimension } from './types.js';

export interface DimensionKey {
  id: NameId;
  /** What to insert when nothing matches (never used for a UUID, which must exist). */
  create: { name: string; slug: string; extra?: Record<string, unknown> };
}

export class UnknownDimensionError extends Error {
  constructor(
    readonly table: DimensionTableName,
    readonly uuid: string,
  ) {
    super(`${table} ${uuid} not found`);
  }
}

/**
 * Gets or creates the dimensions a report names, in chunked lookups and multi-row inserts: each key
 * matches only the column its form names (UUID, slug or name). Archived ones are unarchived. Returns rows
 * by key id value, as they now are in the database.
 */
export async function getOrCreateDimensions<T extends Dimension = Dimension>(
  db: Db,
  table: DimensionTableName,
  projectUuid: string,
  keys: readonly DimensionKey[],
  now = Date.now(),
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const byColumn = { uuid: [] as string[], slug: [] as string[], name: [] as string[] };
  for (const key of keys) byColumn[key.id.column].push(key.id.value);
  const view = db as unknown as Kysely<{ dimension: DimensionColumns }>;
  const index = new Map<string, T>();
  for (const column of ['uuid', 'slug', 'name'] as const) {
    for await (const values of chunks(byColumn[column])) {
      const rows = (await view
        .selectFrom(table as 'dimension')
        .selectAll()
        .where('project_uuid', '=', projectUuid)
        .where(column, 'in', values)
        .execute()) as unknown as T[];
      for (const row of rows) {
        index.set(`uuid:${row.uuid}`, row);
        index.set(`slug:${row.slug}`, row);
        index.set(`name:${row.name}`, row);
      }
    }
  }
  const archived: string[] = [];
  const toCreate = new Map<string, DimensionKey[]>();
  for (const key of keys) {
    if (found.has(key.id.value)) continue;
    let row = index.get(`${key.id.column}:${key.id.value}`);
    if (!row) {
      if (key.id.column === 'uuid') throw new UnknownDimensionError(table, key.id.value);
      row = index.get(`name:${key.create.name}`);
    }
    if (!row) {
      const sameName = toCreate.get(key.create.name);
      if (sameName) sameName.push(key);
      else toCreate.set(key.create.name, [key]);
      continue;
    }
    if (row.archived !== null) {
      archived.push(row.uuid);
      row.archived = null;
      row.modified = now;
    }
    found.set(key.id.value, row);
  }
  const groups = [...toCreate.values()];
  const created = await insertDimensions<T>(
    db,
    table,
    projectUuid,
    groups.map((group) => (group[0] as DimensionKey).create),
    now,
  );
  groups.forEach((group, i) => {
    for (const key of group) found.set(key.id.value, created[i] as T);
  });
  await unarchive(db, table, archived, now);
  return found;
}
