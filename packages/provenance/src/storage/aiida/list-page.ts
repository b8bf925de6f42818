import { sql } from 'kysely';
import { compileCondition, indexPrefilter } from './conditions.js';
import { entityColumn, memoCount, type PageQuery, pageClause, plainPage, type Row } from './entities.js';
import type { AiidaStore } from './open.js';

/** Rows a page ordered by id may read in id order before the index-first plan is cheaper. */
const WALK_ROWS = 20_000;

/**
 * The rows of one list page. Archive totals are exact (immutable), so there a page past the total is
 * empty without a query. A page ordered by id alone (the default) avoids both ways the databases' own
 * plans read most of a big table (walking ids past rows that do not match, or sorting every match): when
 * the matches are dense enough to expect the page within the first `WALK_ROWS` ids, those are read in
 * order; when they are sparse, or not where their density promised (e.g. only recent nodes), the page's
 * ids come from the filters' indexes (covering, top-N sorted). The page's ids are memoised with the
 * totals (for good on archives, 10 s on PostgreSQL); its rows are read by id. Other orderings keep the
 * database's plan.
 */
export async function listPage(page: PageQuery): Promise<Row[]> {
  const { store, table, query, total, limit, offset } = page;
  const archive = store.dialect === 'sqlite';
  if (archive && (total <= offset || limit === 0)) return [];
  const [first, ...rest] = query.orderby;
  const wanted = archive ? Math.min(limit ?? Number.POSITIVE_INFINITY, total - offset) : limit;
  if (first?.column !== 'id' || rest.length > 0 || wanted === undefined) {
    // SQLite would drive a prefix range through its index and then sort the whole range.
    const where = archive
      ? compileCondition(query.where, entityColumn, 'sqlite', indexPrefilter(store, table, { ranges: false }))
      : page.indexed;
    return plainPage(page, where);
  }
  const direction = sql.raw(first.descending ? 'desc' : 'asc');
  const byIndex = sql<{
    id: number;
  }>`select e.id from ${sql.table(table)} as e where ${page.indexed} order by e.id + 0 ${direction} ${pageClause(store.dialect, wanted, offset)}`;
  const compiled = byIndex.compile(store.db);
  const ids = await store.memo.get(`ids:${compiled.sql}:${JSON.stringify(compiled.parameters)}`, async () => {
    const walked = await walkIds(page, wanted, first.descending);
    return walked ?? (await byIndex.execute(store.db)).rows.map((r) => Number(r.id));
  });
  if (ids.length === 0) return [];
  const { rows } =
    await sql<Row>`select ${page.projection} from ${sql.table(table)} as e where e.id in (${sql.join(ids)}) order by e.id ${direction}`.execute(
      store.db,
    );
  return rows;
}

/** The page's ids read in id order within the first `WALK_ROWS` ids, or undefined if not expected or not found there. */
async function walkIds(page: PageQuery, wanted: number, descending: boolean): Promise<number[] | undefined> {
  const { store, table, query, total, offset } = page;
  const tableRows = Math.max(await tableSize(store, table), total);
  if (((offset + wanted) * tableRows) / Math.max(total, 1) > WALK_ROWS / 2) return undefined;
  const bound = await walkBound(store, table, descending);
  // On SQLite `+column` keeps the filters off their indexes (PostgreSQL takes the id range by itself).
  const where =
    store.dialect === 'sqlite'
      ? compileCondition(query.where, (name) => sql`+${entityColumn(name)}`, 'sqlite')
      : page.indexed;
  const within = bound === undefined ? sql`1 = 1` : descending ? sql`e.id >= ${bound}` : sql`e.id <= ${bound}`;
  const { rows } = await sql<{
    id: number;
  }>`select e.id from ${sql.table(table)} as e where ${within} and ${where} order by e.id ${sql.raw(descending ? 'desc' : 'asc')} ${pageClause(store.dialect, wanted, offset)}`.execute(
    store.db,
  );
  return rows.length === wanted || bound === undefined ? rows.map((r) => Number(r.id)) : undefined;
}

/** The rows in `table`: counted once on an archive, the planner's estimate on PostgreSQL (a heuristic's input). */
function tableSize(store: AiidaStore, table: string): Promise<number> {
  if (store.dialect === 'sqlite') {
    return memoCount(store, sql<{ n: number }>`select count(*) as n from ${sql.table(table)} as e where 1 = 1`);
  }
  return store.memo.get(`reltuples:${table}`, async () => {
    const { rows } = await sql<{
      n: number;
    }>`select reltuples as n from pg_class where oid = to_regclass(${table})`.execute(store.db);
    return Number(rows[0]?.n ?? 0);
  });
}

/** The id `WALK_ROWS` rows into `table` from either end (undefined when the table is smaller). */
function walkBound(store: AiidaStore, table: string, descending: boolean): Promise<number | undefined> {
  return store.memo.get(`walk-bound:${table}:${descending}`, async () => {
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} order by id ${sql.raw(
      descending ? 'desc' : 'asc',
    )} limit 1 offset ${WALK_ROWS - 1}`.execute(store.db);
    return rows[0] === undefined ? undefined : Number(rows[0].id);
  });
}
