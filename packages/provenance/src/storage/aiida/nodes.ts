import { type RawBuilder, sql } from 'kysely';
import type { RepositoryTree } from '../../wire/repository-tree.js';
import { NODES } from '../../wire/resources.js';
import { retrievedFolder } from './browse.js';
import { compileCondition } from './conditions.js';
import {
  entityColumn,
  type ListQuery,
  memoCount,
  normalizeRow,
  orderClause,
  type Page,
  pageClause,
  type Row,
} from './entities.js';
import type { AiidaStore } from './open.js';
import { toDate } from './rows.js';

export type LinkDirection = 'incoming' | 'outgoing';

/** The linked node is `e`; the link row `l`; `node` is the node whose links are listed. */
function linkJoin(direction: LinkDirection, nodeId: number): RawBuilder<unknown> {
  return direction === 'incoming'
    ? sql`db_dblink as l join db_dbnode as e on e.id = l.input_id where l.output_id = ${nodeId}`
    : sql`db_dblink as l join db_dbnode as e on e.id = l.output_id where l.input_id = ${nodeId}`;
}

/** Links of a node with the linked nodes' columns plus `link_label`/`link_type`, and the link count. */
export async function listLinks(
  store: AiidaStore,
  nodeId: number,
  direction: LinkDirection,
  columns: readonly string[],
  query: ListQuery,
  page: (total: number) => Page,
): Promise<{ total: number; rows: Row[] }> {
  // No index prefilter: a node's links are few, while a trigram lookup reads every match in the archive.
  const where = compileCondition(query.where, entityColumn, store.dialect);
  const from = linkJoin(direction, nodeId);
  const total = await memoCount(store, sql<{ n: number }>`select count(*) as n from ${from} and ${where}`);
  const { limit, offset } = page(total);
  const projection = sql.join([
    ...columns.map((c) => entityColumn(c)),
    sql`l.label as link_label`,
    sql`l.type as link_type`,
  ]);
  const result = await sql<Row>`select ${projection} from ${from} and ${where} ${orderClause(
    query.orderby,
    entityColumn,
  )} ${pageClause(store.dialect, limit, offset)}`.execute(store.db);
  return { total, rows: result.rows.map((row) => normalizeRow(NODES, row)) };
}

export interface NodeContent {
  id: number;
  uuid: string;
  node_type: string;
  process_type: string | null;
  label: string;
  description: string;
  ctime: Date;
  mtime: Date;
  user_id: number;
  dbcomputer_id: number | null;
  attributes: Record<string, unknown>;
  extras: Record<string, unknown>;
  repository_metadata: RepositoryTree;
}

async function nodeWhere(store: AiidaStore, where: RawBuilder<unknown>): Promise<NodeContent | undefined> {
  const { rows } = await sql<Row>`select * from db_dbnode as e where ${where}`.execute(store.db);
  const row = rows[0];
  if (!row) return undefined;
  normalizeRow(NODES, row);
  row.attributes ??= {};
  row.extras ??= {};
  row.repository_metadata ??= {};
  return row as unknown as NodeContent;
}

export const getNodeById = (store: AiidaStore, id: number) => nodeWhere(store, sql`e.id = ${id}`);

/** The node of a whole (lower-case) uuid. */
export const getNodeByUuid = (store: AiidaStore, uuid: string) => nodeWhere(store, sql`e.uuid = ${uuid}`);

/** Distinct (node_type, process_type) pairs with their node counts, `''` and NULL process types merged. */
export function countNodeTypes(store: AiidaStore, userId?: number) {
  return store.memo.get(`types:${userId ?? ''}`, () => queryNodeTypes(store, userId));
}

async function queryNodeTypes(store: AiidaStore, userId?: number) {
  const userFilter = userId === undefined ? sql`` : sql`where user_id = ${userId}`;
  const { rows } = await sql<{ node_type: string; process_type: string; n: number }>`
    select node_type, coalesce(process_type, '') as process_type, count(*) as n
    from db_dbnode ${userFilter} group by node_type, coalesce(process_type, '')`.execute(store.db);
  return rows.map((r) => ({ nodeType: r.node_type ?? '', processType: r.process_type ?? '', count: Number(r.n) }));
}

/** Number of nodes per creation day (UTC), ascending. */
export function countNodesByDay(store: AiidaStore, userId?: number): Promise<[string, number][]> {
  return store.memo.get(`days:${userId ?? ''}`, () => queryNodesByDay(store, userId));
}

async function queryNodesByDay(store: AiidaStore, userId?: number): Promise<[string, number][]> {
  const day =
    store.dialect === 'postgres' ? sql`to_char(ctime at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(ctime, 1, 10)`;
  const userFilter = userId === undefined ? sql`` : sql`where user_id = ${userId}`;
  const { rows } = await sql<{ day: string; n: number }>`
    select ${day} as day, count(*) as n from db_dbnode ${userFilter} group by 1 order by 1`.execute(store.db);
  return rows.map((r) => [r.day, Number(r.n)]);
}

export interface Comment {
  ctime: Date;
  mtime: Date;
  content: string;
  first_name: string;
  last_name: string;
}

export async function listComments(store: AiidaStore, nodeId: number): Promise<Comment[]> {
  const { rows } = await sql<Comment>`
    select c.ctime, c.mtime, c.content, u.first_name, u.last_name
    from db_dbcomment as c join db_dbuser as u on u.id = c.user_id
    where c.dbnode_id = ${nodeId} order by c.id`.execute(store.db);
  return rows.map((r) => ({ ...r, ctime: toDate(r.ctime), mtime: toDate(r.mtime) }));
}

export interface LogRecord {
  dbnode_id: number;
  levelname: string;
  loggername: string;
  message: string;
  time: Date;
}

export async function listLogs(store: AiidaStore, nodeId: number): Promise<LogRecord[]> {
  const { rows } = await sql<LogRecord>`
    select dbnode_id, levelname, loggername, message, time from db_dblog where dbnode_id = ${nodeId} order by id`.execute(
    store.db,
  );
  return rows.map((r) => ({ ...r, time: toDate(r.time) }));
}

/** The repository of the node a `create` link labelled `retrieved` points to (a CalcJob's retrieved folder). */
export async function findRetrievedRepository(store: AiidaStore, nodeId: number): Promise<RepositoryTree | undefined> {
  return (await retrievedFolder(store, nodeId))?.tree;
}

export async function findNodeByPk(store: AiidaStore, id: number): Promise<Row | undefined> {
  const { rows } = await sql<Row>`select id, uuid, node_type from db_dbnode where id = ${id}`.execute(store.db);
  return rows[0];
}

export function countNodes(store: AiidaStore): Promise<number> {
  return memoCount(store, sql<{ n: number }>`select count(*) as n from db_dbnode as e where 1 = 1`);
}

/** Computer labels by id (a handful of rows; memoised like the other aggregates). */
export function computerLabels(store: AiidaStore): Promise<Map<number, string>> {
  return store.memo.get('computer-labels', async () => {
    const { rows } = await sql<{ id: number; label: string }>`select id, label from db_dbcomputer`.execute(store.db);
    return new Map(rows.map((r) => [Number(r.id), r.label]));
  });
}
