import type { Row } from '../storage/aiida/entities.js';
import { listEntities } from '../storage/aiida/entities.js';
import { inputError, URL_NOT_FOUND } from '../wire/errors.js';
import { type Condition, fullTypeFilter } from '../wire/full-type.js';
import { listQuery } from '../wire/list-query.js';
import { nodeRecord } from '../wire/node-records.js';
import { linkHeader, pageWindow, validateRequest } from '../wire/pagination.js';
import type { RequestParams } from '../wire/request-params.js';
import { NODES, type ResourceDefinition, USERS } from '../wire/resources.js';
import {
  type ApiCall,
  type Handler,
  idSegment,
  pageNumber,
  queryParams,
  resolveUuid,
  sendEnvelope,
} from './api-call.js';
import { requestFields } from './respond.js';

export const FILTERS_WITH_ID = 'selecting a specific id does not allow to specify filters';

/** The envelope `id` and the condition selecting it, for `/<resource>/<id>` requests. */
async function selectedId(
  call: ApiCall,
  resource: ResourceDefinition,
  params: RequestParams,
): Promise<{ id: string | number | null; where: Condition[] }> {
  if (call.params.id === undefined) return { id: null, where: [] };
  if (resource === USERS) {
    if (!/^-?\d+$/.test(call.params.id)) throw inputError(URL_NOT_FOUND);
    const pk = Number(call.params.id);
    if (params.filters.length) throw inputError(FILTERS_WITH_ID);
    return { id: pk, where: [{ column: 'id', op: '==', value: pk }] };
  }
  const segment = idSegment(call);
  const fullType = resource === NODES ? fullTypeFilter(params.fullType) : undefined;
  if (params.filters.length || fullType) throw inputError(FILTERS_WITH_ID);
  const row = await resolveUuid(call, resource, segment);
  return { id: segment, where: [{ column: 'id', op: '==', value: row.id as number }] };
}

/** Link header for a paged request, built from the URL as the client sent it. */
export function pagedLink(call: ApiCall, pages: ReturnType<typeof pageWindow>['pages']): string | undefined {
  if (!pages) return undefined;
  return linkHeader(`${requestFields(call.request).url_root}${call.request.url.slice(1)}`, pages);
}

/** `/<resource>/`, `/page/`, `/page/<n>/` and `/<id>/` of computers, groups, users and nodes. */
export function listHandler(resource: ResourceDefinition): Handler {
  return async (call) => {
    const params = queryParams(call);
    const page = pageNumber(call);
    validateRequest(params, page, false);
    const { id, where } = await selectedId(call, resource, params);
    const query = listQuery(resource, params, where);
    const columns =
      resource === NODES
        ? [...NODES.projection, ...(params.attributes ? ['attributes'] : []), ...(params.extras ? ['extras'] : [])]
        : resource.projection;
    let pages: ReturnType<typeof pageWindow>['pages'];
    const { total, rows } = await listEntities(call.source.store, resource, columns, query, (count) => {
      const window = pageWindow(params, page, count);
      pages = window.pages;
      return window;
    });
    const records: Row[] = resource === NODES ? rows.map((row) => nodeRecord(row, params)) : rows;
    const link = pagedLink(call, pages);
    return sendEnvelope(call, resource.name, { [resource.name]: records }, id, {
      totalCount: total,
      ...(link ? { link } : {}),
    });
  };
}
