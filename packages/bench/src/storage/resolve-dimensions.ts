import type { Kysely } from 'kysely';
import type { NameId } from '../wire/slug.js';
import { insertDimension, unarchive } from './dimensions.js';
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
 * Gets or creates the dimensions a report names, in one lookup query: each key matches only the column
 * its form names (UUID, slug or name). Archived ones are unarchived. Returns rows by key id value.
 */
export async function getOrCreateDimensions<T extends Dimension = Dimension>(
  db: Db,
  table: DimensionTableName,
  projectUuid: string,
  keys: readonly DimensionKey[],
  now = Date.now(),
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  if (keys.length === 0) return found;
  const byColumn = { uuid: [] as string[], slug: [] as string[], name: [] as string[] };
  for (const key of keys) byColumn[key.id.column].push(key.id.value);
  const view = db as unknown as Kysely<{ dimension: DimensionColumns }>;
  const rows = (await view
    .selectFrom(table as 'dimension')
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where((eb) =>
      eb.or(
        (['uuid', 'slug', 'name'] as const)
          .filter((column) => byColumn[column].length > 0)
          .map((column) => eb(column, 'in', byColumn[column])),
      ),
    )
    .execute()) as unknown as T[];
  const index = new Map<string, T>();
  for (const row of rows) {
    index.set(`uuid:${row.uuid}`, row);
    index.set(`slug:${row.slug}`, row);
    index.set(`name:${row.name}`, row);
  }
  const archived: string[] = [];
  for (const key of keys) {
    if (found.has(key.id.value)) continue;
    let row = index.get(`${key.id.column}:${key.id.value}`);
    if (!row) {
      if (key.id.column === 'uuid') throw new UnknownDimensionError(table, key.id.value);
      row = index.get(`name:${key.create.name}`);
    }
    if (!row) {
      row = await insertDimension<T>(db, table, { projectUuid, ...key.create }, now);
      index.set(`name:${row.name}`, row);
    } else if (row.archived !== null) {
      archived.push(row.uuid);
      row.archived = null;
    }
    found.set(key.id.value, row);
  }
  await unarchive(db, table, archived, now);
  return found;
}
