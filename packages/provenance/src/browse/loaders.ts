import { overloadProblem } from '../http/error-handler.js';
import type { OpenedSource } from '../open-source.js';
import type { Source } from '../source.js';
import { listEntities } from '../storage/aiida/entities.js';
import { countNodes, countNodesByDay, countNodeTypes } from '../storage/aiida/nodes.js';
import { NODES } from '../wire/resources.js';
import type { SourceSummary } from './landing-page.js';
import { type ListFilters, listConditions, PAGE_SIZE } from './list-filters.js';
import type { ListRow, NodeListView } from './list-page.js';
import { buildTypeTree, selectedPath } from './type-tree.js';

/** A count that outlives the statement deadline (or finds the queue full) is shown as unknown, not a failed page. */
async function orUnknown<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (overloadProblem(error as Error, 0)) return undefined;
    throw error;
  }
}

export async function summarizeSource(source: OpenedSource, isDefault: boolean): Promise<SourceSummary> {
  const [nodes, types, days] = await Promise.all([
    orUnknown(countNodes(source.store)),
    orUnknown(countNodeTypes(source.store)),
    orUnknown(countNodesByDay(source.store)),
  ]);
  const first = days?.[0]?.[0];
  const last = days?.[days.length - 1]?.[0];
  return {
    name: source.name,
    kind: source.archive ? `archive (format ${source.archive.formatVersion})` : 'AiiDA PostgreSQL database',
    isDefault,
    ...(nodes !== undefined ? { nodes } : {}),
    ...(types
      ? { processes: types.filter((t) => t.nodeType.startsWith('process.')).reduce((n, t) => n + t.count, 0) }
      : {}),
    ...(first && last ? { span: [first, last] as [string, string] } : {}),
  };
}

const LIST_COLUMNS = ['id', 'uuid', 'node_type', 'process_type', 'label', 'ctime'];

/** One page of nodes (newest first) under the filters, with the type tree to filter by. */
export async function loadNodeList(source: Source, filters: ListFilters, errors: string[]): Promise<NodeListView> {
  const query = { where: { and: listConditions(filters) }, orderby: [{ column: 'id', descending: true }] };
  const [types, list] = await Promise.all([
    countNodeTypes(source.store),
    listEntities(source.store, NODES, LIST_COLUMNS, query, () => ({
      limit: PAGE_SIZE,
      offset: (filters.page - 1) * PAGE_SIZE,
    })),
  ]);
  const tree = buildTypeTree(types);
  return {
    source: source.name,
    filters,
    errors,
    tree,
    selected: filters.nodeType ? selectedPath(tree, filters.nodeType, filters.processType) : [],
    total: list.total,
    rows: list.rows as unknown as ListRow[],
  };
}
