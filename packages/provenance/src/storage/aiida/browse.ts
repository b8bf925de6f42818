import { type RawBuilder, sql } from 'kysely';
import type { RepositoryTree } from '../../wire/repository-tree.js';
import { memoCount, type Row } from './entities.js';
import type { LinkDirection } from './nodes.js';
import type { AiidaStore } from './open.js';
import { toDate, toJson } from './rows.js';

/** A node as the browser draws it in lists and graphs. */
export interface NodeSummary {
  id: number;
  uuid: string;
  node_type: string;
  process_type: string | null;
  label: string;
}

/** One link from a node already shown (`from`) to a linked node. */
export interface LinkedNode extends NodeSummary {
  from: number;
  link_label: string;
  link_type: string;
}

const summary = (row: Row): NodeSummary => ({
  id: Number(row.id),
  uuid: String(row.uuid),
  node_type: String(row.node_type ?? ''),
  process_type: (row.process_type as string | null) ?? null,
  label: String(row.label ?? ''),
});

/** The links of a node and, for the graph, of its first linked nodes: what `linksAround` answers. */
export interface LinksAround {
  incoming: LinkedNode[];
  outgoing: LinkedNode[];
  /** Incoming links of the first `expanded` incoming nodes, and outgoing links of the first outgoing ones. */
  incoming2: LinkedNode[];
  outgoing2: LinkedNode[];
}

const PARTS = { incoming: 'in', outgoing: 'out' } as const;

/**
 * The first `listed` links of a node each way (by link id) and the first `perNode` links further out of each
 * of its first `expanded` linked nodes, as one statement: one bounded subquery per node (a linked node is the
 * link at offset k of the centre's), so a node with thousands of links reads only the rows it shows.
 */
export async function linksAround(
  store: AiidaStore,
  nodeId: number,
  { listed, expanded, perNode }: { listed: number; expanded: number; perNode: number },
): Promise<LinksAround> {
  const parts: RawBuilder<unknown>[] = [];
  const part = (direction: LinkDirection, parent: RawBuilder<unknown>, limit: number, tag: string) => {
    const [near, far] = direction === 'incoming' ? ['output_id', 'input_id'] : ['input_id', 'output_id'];
    parts.push(sql`select * from (select ${sql.lit(tag)} as part, l.${sql.raw(near)} as from_id, l.label as link_label,
      l.type as link_type, e.id, e.uuid, e.node_type, e.process_type, e.label
      from db_dblink as l join db_dbnode as e on e.id = l.${sql.raw(far)}
      where l.${sql.raw(near)} = ${parent} order by l.id limit ${limit}) as ${sql.raw(`s${parts.length}`)}`);
  };
  for (const direction of ['incoming', 'outgoing'] as const) {
    const [near, far] = direction === 'incoming' ? ['output_id', 'input_id'] : ['input_id', 'output_id'];
    part(direction, sql`${nodeId}`, listed, PARTS[direction]);
    for (let k = 0; k < expanded; k++) {
      const linked = sql`(select ${sql.raw(far)} from db_dblink where ${sql.raw(near)} = ${nodeId} order by id limit 1 offset ${k})`;
      part(direction, linked, perNode, `${PARTS[direction]}2`);
    }
  }
  const { rows } = await sql<Row>`${sql.join(parts, sql` union all `)}`.execute(store.db);
  const found: Record<string, LinkedNode[]> = { in: [], out: [], in2: [], out2: [] };
  for (const row of rows) {
    found[String(row.part)]?.push({
      ...summary(row),
      from: Number(row.from_id),
      link_label: String(row.link_label ?? ''),
      link_type: String(row.link_type ?? ''),
    });
  }
  return {
    incoming: found.in ?? [],
    outgoing: found.out ?? [],
    incoming2: found.in2 ?? [],
    outgoing2: found.out2 ?? [],
  };
}

/** A node's number of links one way (memoised as the API's totals). */
export function countLinks(store: AiidaStore, nodeId: number, direction: LinkDirection): Promise<number> {
  const column = sql.raw(direction === 'incoming' ? 'output_id' : 'input_id');
  return memoCount(store, sql<{ n: number }>`select count(*) as n from db_dblink where ${column} = ${nodeId}`);
}

/** The `create` output labelled `retrieved` of a CalcJob (its retrieved FolderData), if any. */
export async function retrievedFolder(
  store: AiidaStore,
  nodeId: number,
): Promise<{ uuid: string; tree: RepositoryTree } | undefined> {
  const { rows } = await sql<{ uuid: string; repository_metadata: unknown }>`
    select e.uuid, e.repository_metadata from db_dblink as l join db_dbnode as e on e.id = l.output_id
    where l.input_id = ${nodeId} and l.type = 'create' and l.label = 'retrieved' order by e.id limit 1`.execute(
    store.db,
  );
  const row = rows[0];
  return row ? { uuid: String(row.uuid), tree: (toJson(row.repository_metadata) ?? {}) as RepositoryTree } : undefined;
}

export interface BrowseLog {
  levelname: string;
  message: string;
  time: Date;
}

/** The first `limit` log records of a process (its report). */
export async function firstLogs(store: AiidaStore, nodeId: number, limit: number): Promise<BrowseLog[]> {
  const { rows } = await sql<BrowseLog>`
    select levelname, message, time from db_dblog where dbnode_id = ${nodeId} order by id limit ${limit}`.execute(
    store.db,
  );
  return rows.map((r) => ({ ...r, time: toDate(r.time) }));
}

export interface BrowseComment {
  content: string;
  ctime: Date;
  author: string;
}

/** The first `limit` comments of a node with their authors' names. */
export async function firstComments(store: AiidaStore, nodeId: number, limit: number): Promise<BrowseComment[]> {
  const { rows } = await sql<{ content: string; ctime: Date; first_name: string; last_name: string }>`
    select c.content, c.ctime, u.first_name, u.last_name from db_dbcomment as c join db_dbuser as u on u.id = c.user_id
    where c.dbnode_id = ${nodeId} order by c.id limit ${limit}`.execute(store.db);
  return rows.map((r) => ({
    content: r.content,
    ctime: toDate(r.ctime),
    author: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
  }));
}

/** Users' display names (first and last name, institution; not the e-mail, as the REST API) by id, memoised. */
export function userNames(store: AiidaStore): Promise<Map<number, string>> {
  return store.memo.get('user-names', async () => {
    const { rows } = await sql<{ id: number; first_name: string; last_name: string; institution: string }>`
      select id, first_name, last_name, institution from db_dbuser order by id limit 1000`.execute(store.db);
    return new Map(
      rows.map((r) => {
        const name = `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || `user ${r.id}`;
        return [Number(r.id), r.institution ? `${name} (${r.institution})` : name];
      }),
    );
  });
}
