import type { Row } from '../storage/aiida/entities.js';
import {
  computerLabels,
  countNodesByDay,
  countNodeTypes,
  getNodeById,
  type LinkDirection,
  listComments,
  listLinks,
  type NodeContent,
} from '../storage/aiida/nodes.js';
import { downloadFormatsFor } from '../wire/download-formats.js';
import { inputError } from '../wire/errors.js';
import { fullTypeFilter } from '../wire/full-type.js';
import { listQuery } from '../wire/list-query.js';
import { buildNamespaceTree } from '../wire/namespace-tree.js';
import { nodeRecord, pickExisting } from '../wire/node-records.js';
import { derivedProperties, treeDescription } from '../wire/node-types.js';
import { pageWindow, treeLimit, validateRequest } from '../wire/pagination.js';
import { PROJECTABLE_PROPERTIES } from '../wire/projectable.js';
import type { RequestParams } from '../wire/request-params.js';
import { NODES } from '../wire/resources.js';
import { referenceUserFilter } from '../wire/user-filter.js';
import {
  type ApiCall,
  type Handler,
  idSegment,
  pageNumber,
  queryParams,
  resolveUuid,
  sendEnvelope,
} from './api-call.js';
import { FILTERS_WITH_ID, pagedLink } from './list-routes.js';

/** Loads the node named by the path (uuid prefix), refusing filters as the reference does. */
export async function nodeFromPath(call: ApiCall, params: RequestParams): Promise<NodeContent> {
  const segment = idSegment(call);
  if (params.filters.length || fullTypeFilter(params.fullType)) throw inputError(FILTERS_WITH_ID);
  const row = await resolveUuid(call, NODES, segment);
  const node = await getNodeById(call.source.store, row.id as number);
  if (!node) throw inputError(`either no object's id starts with '${segment}'`);
  return node;
}

export const projectableHandler =
  (resource: keyof typeof PROJECTABLE_PROPERTIES): Handler =>
  async (call) => {
    validateRequest(queryParams(call), undefined, true);
    return sendEnvelope(call, resource, PROJECTABLE_PROPERTIES[resource], null, { totalCount: 1 });
  };

/** `Node.get`: every nodes endpoint validates paging keys first (`perpage` needs `/page/`, …). */
function nodesParams(call: ApiCall): RequestParams {
  const params = queryParams(call);
  validateRequest(params, undefined, false);
  return params;
}

export const statisticsHandler: Handler = async (call) => {
  const user = referenceUserFilter(nodesParams(call).filterFields);
  const [types, days] = await Promise.all([
    countNodeTypes(call.source.store, user),
    countNodesByDay(call.source.store, user),
  ]);
  const byType: Record<string, number> = {};
  let total = 0;
  for (const t of types) {
    byType[t.nodeType] = (byType[t.nodeType] ?? 0) + t.count;
    total += t.count;
  }
  const data = { ctime_by_day: Object.fromEntries(days), total, types: byType };
  return sendEnvelope(call, 'nodes', data, null, { totalCount: 0 });
};

export const fullTypesHandler =
  (withCounter: boolean): Handler =>
  async (call) => {
    const params = nodesParams(call);
    const user = withCounter ? referenceUserFilter(params.filterFields) : undefined;
    const types = await countNodeTypes(call.source.store, user);
    return sendEnvelope(call, 'nodes', buildNamespaceTree(types, withCounter), null, { totalCount: 0 });
  };

export const downloadFormatsHandler: Handler = async (call) => {
  const data = downloadFormatsFor(nodesParams(call).fullType);
  return sendEnvelope(call, 'nodes', data, null, { totalCount: 0 });
};

export const contentsHandler =
  (what: 'attributes' | 'extras' | 'comments' | 'derived_properties'): Handler =>
  async (call) => {
    const params = queryParams(call);
    validateRequest(params, undefined, false);
    const node = await nodeFromPath(call, params);
    let content: unknown;
    if (what === 'attributes' || what === 'extras') {
      const filter = what === 'attributes' ? params.attributesFilter : params.extrasFilter;
      content = filter ? pickExisting(node[what], filter) : node[what];
    } else if (what === 'comments') {
      content = (await listComments(call.source.store, node.id)).map((c) => ({
        created_time: c.ctime,
        message: c.content,
        modified_time: c.mtime,
        user: `${c.first_name} ${c.last_name}`,
      }));
    } else {
      content = derivedProperties(node.node_type, node.attributes);
    }
    return sendEnvelope(call, 'nodes', { [what]: content }, call.params.id ?? null, { totalCount: 1 });
  };

export const linksHandler =
  (direction: LinkDirection): Handler =>
  async (call) => {
    const params = queryParams(call);
    const page = pageNumber(call);
    validateRequest(params, page, false);
    const segment = idSegment(call);
    const node = await resolveUuid(call, NODES, segment);
    let pages: ReturnType<typeof pageWindow>['pages'];
    const { total, rows } = await listLinks(
      call.source.store,
      node.id as number,
      direction,
      NODES.projection,
      listQuery(NODES, params),
      (count) => {
        const window = pageWindow(params, page, count);
        pages = window.pages;
        return window;
      },
    );
    const records = rows.map((row) => nodeRecord(row, { attributes: false, extras: false }));
    const link = pagedLink(call, pages);
    return sendEnvelope(call, 'nodes', { [direction]: records }, segment, {
      totalCount: total,
      ...(link ? { link } : {}),
    });
  };

function treeRecord(row: Row, computers: Map<number, string>): Row {
  const attributes = (row.attributes ?? {}) as Record<string, unknown>;
  const computer = computers.get(row.dbcomputer_id as number);
  const record: Row = {
    ctime: row.ctime,
    description: treeDescription(row.node_type as string, attributes, row.label as string, computer),
    id: row.id,
    mtime: row.mtime,
    node_label: row.label,
    node_type: row.node_type,
    uuid: row.uuid,
  };
  if ('link_label' in row) {
    record.link_label = row.link_label;
    record.link_type = row.link_type;
  }
  return record;
}

const TREE_COLUMNS = ['id', 'uuid', 'node_type', 'label', 'ctime', 'mtime', 'attributes', 'dbcomputer_id'];

export const treeHandler: Handler = async (call) => {
  const params = nodesParams(call);
  const segment = idSegment(call);
  const found = await resolveUuid(call, NODES, segment);
  const node = await getNodeById(call.source.store, found.id as number);
  if (!node) throw inputError(`either no object's id starts with '${segment}'`);
  const [inLimit, outLimit] = [treeLimit(params.inLimit), treeLimit(params.outLimit)];
  const store = call.source.store;
  const everything = { where: { and: [] }, orderby: [{ column: 'id', descending: false }] };
  const side = (direction: LinkDirection, limit: number | undefined) =>
    listLinks(store, node.id, direction, TREE_COLUMNS, everything, () => ({ limit }));
  const [incoming, outgoing, computers] = await Promise.all([
    side('incoming', inLimit),
    side('outgoing', outLimit),
    computerLabels(store),
  ]);
  const record = (row: Row) => treeRecord(row, computers);
  const data = {
    metadata: [
      {
        sent_no_of_incomings: incoming.rows.length,
        sent_no_of_outgoings: outgoing.rows.length,
        total_no_of_incomings: incoming.total,
        total_no_of_outgoings: outgoing.total,
      },
    ],
    nodes: [
      {
        ...record(node as unknown as Row),
        incoming: incoming.rows.map(record),
        outgoing: outgoing.rows.map(record),
      },
    ],
  };
  return sendEnvelope(call, 'nodes', data, segment, { totalCount: 0 });
};
