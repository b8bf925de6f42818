import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Page } from '../wire/pagination.js';
import { type NameId, suffixedSlug } from '../wire/slug.js';
import { chunks } from './chunks.js';
import { type Listed, paged, searchAny } from './list-query.js';
import type { DimensionColumns, DimensionTableName, MeasureTable } from './schema.js';
import type { Db, Dimension } from './types.js';

/**
 * Queries shared by branches, testbeds, benchmarks and measures (one table each, same columns).
 * Kysely cannot type a query over a union of tables, so these view the table through one alias.
 */
type AnyDimension = DimensionColumns & Partial<Pick<MeasureTable, 'units'>> & { head_uuid?: string | null };
type DimensionDb = Kysely<{ dimension: AnyDimension }>;
const as = (db: Db) => db as unknown as DimensionDb;
const table = (name: DimensionTableName) => name as 'dimension';

export async function findDimension<T extends Dimension = Dimension>(
  db: Db,
  name: DimensionTableName,
  projectUuid: string,
  id: NameId,
): Promise<T | undefined> {
  return (await as(db)
    .selectFrom(table(name))
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where(id.column, '=', id.value)
    .executeTakeFirst()) as T | undefined;
}

export async function findDimensionsByUuid<T extends Dimension = Dimension>(
  db: Db,
  name: DimensionTableName,
  uuids: readonly string[],
): Promise<T[]> {
  if (uuids.length === 0) return [];
  return (await as(db).selectFrom(table(name)).selectAll().where('uuid', 'in', uuids).execute()) as T[];
}

/**
 * Inserts dimensions of one project in multi-row statements; a slug taken (before or within the batch)
 * gets a random suffix. Names must be new.
 */
export async function insertDimensions<T extends Dimension = Dimension>(
  db: Db,
  name: DimensionTableName,
  projectUuid: string,
  inputs: readonly { name: string; slug: string; extra?: Partial<AnyDimension> }[],
  now = Date.now(),
): Promise<T[]> {
  const taken = new Set<string>();
  for await (const slugs of chunks(inputs.map((input) => input.slug))) {
    const rows = await as(db)
      .selectFrom(table(name))
      .select('slug')
      .where('project_uuid', '=', projectUuid)
      .where('slug', 'in', slugs)
      .execute();
    for (const row of rows) taken.add(row.slug);
  }
  const rows = inputs.map((input): AnyDimension => {
    const slug = taken.has(input.slug) ? suffixedSlug(input.slug) : input.slug;
    taken.add(slug);
    return {
      uuid: randomUUID(),
      project_uuid: projectUuid,
      name: input.name,
      slug,
      created: now,
      modified: now,
      archived: null,
      ...input.extra,
    };
  });
  for await (const chunk of chunks(rows)) await as(db).insertInto(table(name)).values(chunk).execute();
  return rows as unknown as T[];
}

/** Inserts a dimension; a taken slug gets a random suffix, a taken name is the caller's 409. */
export async function insertDimension<T extends Dimension = Dimension>(
  db: Db,
  name: DimensionTableName,
  input: { projectUuid: string; name: string; slug: string; extra?: Partial<AnyDimension> },
  now = Date.now(),
): Promise<T> {
  const taken = await findDimension(db, name, input.projectUuid, { column: 'slug', value: input.slug });
  const row: AnyDimension = {
    uuid: randomUUID(),
    project_uuid: input.projectUuid,
    name: input.name,
    slug: taken ? suffixedSlug(input.slug) : input.slug,
    created: now,
    modified: now,
    archived: null,
    ...input.extra,
  };
  await as(db).insertInto(table(name)).values(row).execute();
  return row as unknown as T;
}

export interface DimensionFilter {
  projectUuid: string;
  archived: boolean;
  name?: string | undefined;
  search?: string | undefined;
}

export async function listDimensions<T extends Dimension = Dimension>(
  db: Db,
  name: DimensionTableName,
  filter: DimensionFilter,
  page: Page,
): Promise<Listed<T>> {
  let query = as(db)
    .selectFrom(table(name))
    .where('project_uuid', '=', filter.projectUuid)
    .where('archived', filter.archived ? 'is not' : 'is', null);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) query = query.where(searchAny(['name', 'slug', 'uuid'], filter.search));
  const listed = await paged(
    query,
    (q) =>
      q
        .selectAll()
        .orderBy('name', page.direction ?? 'asc')
        .orderBy('uuid'),
    page,
  );
  return { rows: listed.rows as unknown as T[], total: listed.total };
}

export interface DimensionChanges {
  name?: string | undefined;
  slug?: string | undefined;
  units?: string | undefined;
  archived?: boolean | undefined;
}

export async function updateDimension(
  db: Db,
  name: DimensionTableName,
  uuid: string,
  changes: DimensionChanges,
  now = Date.now(),
): Promise<void> {
  const { archived, ...rest } = changes;
  const set: Partial<AnyDimension> = { modified: now };
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (set as Record<string, unknown>)[key] = value;
  }
  if (archived !== undefined) set.archived = archived ? now : null;
  await as(db).updateTable(table(name)).set(set).where('uuid', '=', uuid).execute();
}

/** Clears `archived` on the dimensions a new report uses. */
export async function unarchive(db: Db, name: DimensionTableName, uuids: readonly string[], now = Date.now()) {
  for await (const chunk of chunks(uuids)) {
    await as(db)
      .updateTable(table(name))
      .set({ archived: null, modified: now })
      .where('uuid', 'in', chunk)
      .where('archived', 'is not', null)
      .execute();
  }
}

export async function deleteDimension(db: Db, name: DimensionTableName, uuid: string): Promise<void> {
  await as(db).deleteFrom(table(name)).where('uuid', '=', uuid).execute();
}
