import { inputError, internalError, validationError } from './errors.js';
import { pyInt, pyIntInstance } from './python-values.js';
import type { FieldValue } from './query-string.js';
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

/** Negative values reach the database in the reference (SQLite then returns every row): refused here. */
function notNegative(value: number): number {
  if (value < 0) throw validationError('limit, offset and perpage cannot be negative');
  return value;
}

/**
 * `Utils.paginate` / `BaseTranslator.set_limit_offset`: the rows to fetch, given the total row count. Values are
 * converted with Python's `int()` there, after the count: `limit="5"` and `limit=5.7` are 5, `limit=true` is 1.
 */
export function pageWindow(params: RequestParams, page: number | undefined, total: number): Window {
  if (page === undefined) {
    const limit =
      params.limit === undefined ? LIMIT_DEFAULT : notNegative(pyInt(params.limit, 'Limit value must be an integer'));
    if (limit > LIMIT_DEFAULT) throw validationError(`Limit and perpage cannot be bigger than ${LIMIT_DEFAULT}`);
    if (params.offset === undefined) return { limit, offset: undefined };
    const offset = notNegative(pyInt(params.offset, 'Offset value must be an integer'));
    // Offsets reach SQL as integers: a double past 2^53 is not one any more.
    if (offset > Number.MAX_SAFE_INTEGER)
      throw validationError(`Offset cannot be bigger than ${Number.MAX_SAFE_INTEGER}`);
    return { limit, offset };
  }
  const perpage =
    params.perpage === undefined ? PERPAGE_DEFAULT : notNegative(pyInt(params.perpage, 'perpage must be an integer'));
  if (perpage === 0 && total > 0) throw internalError('division by zero');
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

/**
 * `links/tree`'s `in_limit`/`out_limit` go to `QueryBuilder.limit` unconverted, which takes Python ints only
 * (booleans are ints: `true` is 1) and raises `TypeError` (HTTP 500) for anything else; a negative limit
 * is no limit on SQLite.
 */
export function treeLimit(value: FieldValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = pyIntInstance(value);
  if (limit === undefined) throw internalError('The limit has to be an integer, or None');
  return limit < 0 || limit > Number.MAX_SAFE_INTEGER ? undefined : limit;
}
