import { type RawBuilder, sql } from 'kysely';
import type { ListQuery } from '../../wire/list-query.js';
import type { OrderTerm } from '../../wire/request-params.js';
import type { ResourceDefinition } from '../../wire/resources.js';
import { compileCondition, indexPrefilter } from './conditions.js';
import { listPage } from './list-page.js';
import type { AiidaDialect, AiidaStore } from './open.js';
import { toDate, toJson } from './rows.js';

export type Row = Record<string, unknown>;

export type { ListQuery } from '../../wire/list-query.js';

/** `e.<column>`: every list query aliases its main table as `e`. */
export const entityColumn = (name: string): RawBuilder<unknown> => sql.ref(`e.${name}`);

export function orderClause(orderby: OrderTerm[], column: (name: string) => RawBuilder<unknown>): RawBuilder<unknown> {
  const terms = orderby.map((t) => sql`${column(t.column)} ${sql.raw(t.descending ? 'desc' : 'asc')}`);
  return sql`order by ${sql.join(terms)}`;
}

/** LIMIT/OFFSET; SQLite needs a LIMIT before any OFFSET (-1 = none), PostgreSQL rejects -1. */
export function pageClause(dialect: AiidaDialect, limit?: number, offset?: number): RawBuilder<unknown> {
  const limitPart = limit !== undefined ? sql`limit ${limit}` : dialect === 'sqlite' ? sql`limit -1` : sql``;
  return offset ? sql`${limitPart} offset ${offset}` : limitPart;
}

/** Turns stored datetimes into `Date`s and JSON text into values, in place. */
export function normalizeRow(resource: ResourceDefinition, row: Row): Row {
  for (const key of resource.timeColumns) if (row[key] != null) row[key] = toDate(row[key] as string | Date);
  for (const key of resource.jsonColumns) if (key in row) row[key] = toJson(row[key]);
  return row;
}

/** Runs a `select count(*) as n ...` once per distinct statement (see QueryMemo). */
export function memoCount(store: AiidaStore, query: RawBuilder<{ n: number }>): Promise<number> {
  const compiled = query.compile(store.db);
  const key = `count:${compiled.sql}:${JSON.stringify(compiled.parameters)}`;
  return store.memo.get(key, async () => {
    const { rows } = await query.execute(store.db);
    return Number(rows[0]?.n ?? 0);
  });
}

export function countEntities(store: AiidaStore, resource: ResourceDefinition, where: RawBuilder<unknown>) {
  return memoCount(
    store,
    sql<{ n: number }>`select count(*) as n from ${sql.table(resource.table)} as e where ${where}`,
  );
}

export interface Page {
  limit?: number;
  offset?: number;
}

/** One page of a list, once its total is known. */
export interface PageQuery {
  store: AiidaStore;
  table: string;
  projection: RawBuilder<unknown>;
  query: ListQuery;
  /** The list's condition with the prefilters indexes answer (also what the total counted). */
  indexed: RawBuilder<unknown>;
  total: number;
  limit?: number;
  offset: number;
}

/** The page as one statement: the condition, the ordering, LIMIT/OFFSET. */
export async function plainPage(page: PageQuery, where = page.indexed): Promise<Row[]> {
  const { store, table, projection, query, limit, offset } = page;
  const { rows } = await sql<Row>`select ${projection} from ${sql.table(table)} as e where ${where} ${orderClause(
    query.orderby,
    entityColumn,
  )} ${pageClause(store.dialect, limit, offset)}`.execute(store.db);
  return rows;
}

/**
 * A resource list: the total first (paging is validated against it), then the rows of the page the
 * caller derives from that total. Two statements, no per-row queries (see `listPage`).
 */
export async function listEntities(
  store: AiidaStore,
  resource: ResourceDefinition,
  columns: readonly string[],
  query: ListQuery,
  page: (total: number) => Page,
): Promise<{ total: number; rows: Row[] }> {
  const indexed = compileCondition(query.where, entityColumn, store.dialect, indexPrefilter(store, resource.table));
  const total = await countEntities(store, resource, indexed);
  const { limit, offset = 0 } = page(total);
  const projection = sql.join(columns.map((c) => entityColumn(c)));
  const request: PageQuery = { store, table: resource.table, projection, query, indexed, total, limit, offset };
  const rows = await listPage(request);
  return { total, rows: rows.map((row) => normalizeRow(resource, row)) };
}

/** Expands a uuid prefix (dashes optional) to the inclusive uuid range it covers. */
export function uuidRange(prefix: string): [string, string] {
  const hex = prefix.replace(/-/g, '').toLowerCase();
  const dashed = (full: string) =>
    `${full.slice(0, 8)}-${full.slice(8, 12)}-${full.slice(12, 16)}-${full.slice(16, 20)}-${full.slice(20, 32)}`;
  return [dashed(hex.padEnd(32, '0')), dashed(hex.padEnd(32, 'f'))];
}

/** At most two rows whose uuid starts with `prefix` (two are enough to detect ambiguity). */
export async function findByUuidPrefix(
  store: AiidaStore,
  resource: ResourceDefinition,
  prefix: string,
  columns: readonly string[] = ['id', 'uuid'],
): Promise<Row[]> {
  const [low, high] = uuidRange(prefix);
  const projection = sql.join(columns.map((c) => entityColumn(c)));
  const { rows } =
    await sql<Row>`select ${projection} from ${sql.table(resource.table)} as e where e.uuid >= ${low} and e.uuid <= ${high} order by e.id limit 2`.execute(
      store.db,
    );
  return rows.map((row) => normalizeRow(resource, row));
}
