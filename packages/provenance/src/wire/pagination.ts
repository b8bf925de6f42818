import { inputError, internalError, validationError } from './errors.js';
import type { RequestParams } from './request-params.js';

export const LIMIT_DEFAULT = 400;
export const PERPAGE_DEFAULT = 20;

/** `Utils.validate_request`: the checks made before anything is queried. */
export function validateRequest(params: RequestParams, page: number | undefined, projectable: boolean): void {
  const hasLimitOrOffset = params.limit !== undefined || params.offset !== undefined;
  if (params.perpage !== undefined && hasLimitOrOffset) {
    throw validationError('perpage key is incompatible with limit and offset');
  }
  if (page !== undefined && hasLimitOrOffset) {
    throw validationError('requesting a specific page is incompatible with limit and offset');
  }
  if (params.perpage !== undefined && page === undefined) {
    throw validationError('perpage key requires that a page is requested (i.e. the path must contain /page/)');
  }
  if (projectable && params.hasQuery) {
    throw inputError('projectable_properties requests do not allow specifying a query string');
  }
}

export interface Window {
  limit: number;
  offset: number | undefined;
  /** For paged requests: the page numbers of the Link header. */
  pages?: { prev?: number; next?: number; first: number; last: number };
}

/** `Utils.paginate` / `set_limit_offset`: the rows to fetch, given the total row count. */
export function pageWindow(params: RequestParams, page: number | undefined, total: number): Window {
  // The reference passes negative values to the database (SQLite then returns every row): refuse them.
  for (const value of [params.limit, params.offset, params.perpage]) {
    if (value !== undefined && value < 0) throw validationError('limit, offset and perpage cannot be negative');
  }
  if (page === undefined) {
    const limit = params.limit ?? LIMIT_DEFAULT;
    if (limit > LIMIT_DEFAULT) throw validationError(`Limit and perpage cannot be bigger than ${LIMIT_DEFAULT}`);
    return { limit, offset: params.offset };
  }
  const perpage = params.perpage ?? PERPAGE_DEFAULT;
  if (perpage === 0) throw internalError('division by zero');
  const last = total === 0 ? 1 : Math.ceil(total / perpage);
  if (page < 1 || page > last) throw inputError(`Non existent page requested. The page range is [1 : ${last}]`);
  if (perpage > LIMIT_DEFAULT) throw validationError(`Limit and perpage cannot be bigger than ${LIMIT_DEFAULT}`);
  return {
    limit: perpage,
    offset: (page - 1) * perpage,
    pages: {
      ...(page > 1 ? { prev: page - 1 } : {}),
      ...(page < last ? { next: page + 1 } : {}),
      first: 1,
      last,
    },
  };
}

/**
 * The reference's `Link` header, bugs included: built from the raw URL split on `/` with empty segments
 * dropped (so `http:/host`), unquoted `rel`, trailing `, `.
 */
export function linkHeader(fullUrl: string, pages: NonNullable<Window['pages']>): string {
  const q = fullUrl.indexOf('?');
  const path = q < 0 ? fullUrl : fullUrl.slice(0, q);
  const query = q < 0 ? '' : fullUrl.slice(q + 1);
  const segments = path.split('/').filter(Boolean);
  const pageAt = segments.lastIndexOf('page');
  const base = pageAt < 0 ? segments : segments.slice(0, pageAt);
  const suffix = query ? `?${query}` : '';
  let header = '';
  for (const rel of ['prev', 'next', 'first', 'last'] as const) {
    const n = pages[rel];
    if (n === undefined) continue;
    header += `<${[...base, 'page', String(n)].join('/')}${suffix}>; rel=${rel}, `;
  }
  return header;
}
