import { checkOperand } from './filter-operands.js';
import { type Condition, fullTypeFilter } from './full-type.js';
import type { OrderTerm, RequestParams } from './request-params.js';
import { NODES, type ResourceDefinition, resolveColumn } from './resources.js';

export interface ListQuery {
  where: Condition;
  orderby: OrderTerm[];
}

/** The translator's filters and ordering: validated columns, `full_type` for nodes, `id` as tie-breaker. */
export function listQuery(resource: ResourceDefinition, params: RequestParams, extra: Condition[] = []): ListQuery {
  const conditions: Condition[] = params.filters.map((f) =>
    checkOperand({ ...f, column: resolveColumn(resource, f.column) }),
  );
  const fullType = resource === NODES ? fullTypeFilter(params.fullType) : undefined;
  if (fullType) conditions.push(fullType);
  const orderby = params.orderby.map((t) => ({ ...t, column: resolveColumn(resource, t.column) }));
  if (!orderby.some((t) => t.column === 'id')) orderby.push({ column: 'id', descending: false });
  return { where: { and: [...extra, ...conditions] }, orderby };
}
