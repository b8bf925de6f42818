import type { Source } from '../source.js';
import {
  type BrowseComment,
  type BrowseLog,
  countLinks,
  firstComments,
  firstLogs,
  type LinkedNode,
  linksAround,
  retrievedFolder,
  userNames,
} from '../storage/aiida/browse.js';
import { computerLabels, getNodeByUuid, type LinkDirection, type NodeContent } from '../storage/aiida/nodes.js';
import { CALCJOB_NODE_TYPE, isProcess } from '../wire/node-types.js';
import type { RepositoryTree } from '../wire/repository-tree.js';
import { type ArrayView, loadArrays } from './arrays.js';
import type { Neighbourhood } from './graph-svg.js';

/** Links listed per direction on a node page; the graph shows the first few of them. */
export const LINKS_LISTED = 100;
export const GRAPH_FIRST_LEVEL = 10;
export const GRAPH_EXPANDED = 6;
export const GRAPH_PER_NODE = 4;
const COMMENTS_SHOWN = 100;
const LOGS_SHOWN = 200;

export interface NodeView {
  source: string;
  node: NodeContent;
  user: string;
  computer?: string;
  incoming: LinkedNode[];
  outgoing: LinkedNode[];
  totals: { incoming: number; outgoing: number };
  graph: Neighbourhood;
  comments: BrowseComment[];
  logs?: BrowseLog[];
  /** A CalcJob's retrieved folder. */
  retrieved?: { uuid: string; tree: RepositoryTree };
  arrays?: ArrayView[];
  sizeOf(key: string): number | undefined;
}

/** The number of links of a node one way, counted only when the listed ones may not be all. */
const linkTotal = (source: Source, nodeId: number, direction: LinkDirection, listed: number) =>
  listed < LINKS_LISTED ? listed : countLinks(source.store, nodeId, direction);

/** Everything a node page shows, in two rounds of bounded statements; undefined for an unknown uuid. */
export async function loadNodeView(source: Source, uuid: string): Promise<NodeView | undefined> {
  const store = source.store;
  const node = await getNodeByUuid(store, uuid);
  if (!node) return undefined;
  const { id } = node;
  const [links, comments, users, computers, logs, retrieved, arrays] = await Promise.all([
    linksAround(store, id, { listed: LINKS_LISTED, expanded: GRAPH_EXPANDED, perNode: GRAPH_PER_NODE }),
    firstComments(store, id, COMMENTS_SHOWN),
    userNames(store),
    computerLabels(store),
    isProcess(node.node_type) ? firstLogs(store, id, LOGS_SHOWN) : undefined,
    node.node_type === CALCJOB_NODE_TYPE ? retrievedFolder(store, id) : undefined,
    loadArrays(source, node),
  ]);
  const { incoming, outgoing, incoming2, outgoing2 } = links;
  const [inTotal, outTotal] = await Promise.all([
    linkTotal(source, id, 'incoming', incoming.length),
    linkTotal(source, id, 'outgoing', outgoing.length),
  ]);
  const totals = { incoming: inTotal, outgoing: outTotal };
  const computer = node.dbcomputer_id === null ? undefined : computers.get(node.dbcomputer_id);
  const graph = {
    centre: node,
    incoming: incoming.slice(0, GRAPH_FIRST_LEVEL),
    outgoing: outgoing.slice(0, GRAPH_FIRST_LEVEL),
    incoming2,
    outgoing2,
    totals,
  };
  return {
    source: source.name,
    node,
    user: users.get(node.user_id) ?? `user ${node.user_id}`,
    ...(computer !== undefined ? { computer } : {}),
    incoming,
    outgoing,
    totals,
    graph,
    comments,
    ...(logs ? { logs } : {}),
    ...(retrieved ? { retrieved } : {}),
    ...(arrays ? { arrays } : {}),
    sizeOf: (key) => source.objects.size(key),
  };
}
