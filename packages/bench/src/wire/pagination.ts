/** Bencher's list query conventions: `per_page` (default 8, max 255), `page` (0 and 1 are the first), `direction`. */

export interface Page {
  limit: number;
  offset: number;
  direction: 'asc' | 'desc' | undefined;
}

export interface PaginationQuery {
  per_page?: number;
  page?: number;
  direction?: 'asc' | 'desc';
}

export const DEFAULT_PER_PAGE = 8;

export function pageOf(query: PaginationQuery): Page {
  const limit = query.per_page ?? DEFAULT_PER_PAGE;
  const page = Math.max(query.page ?? 1, 1);
  return { limit, offset: (page - 1) * limit, direction: query.direction };
}

/** JSON schema properties of the pagination query, for route schemas. */
export const paginationProperties = (sorts: readonly string[]) => ({
  per_page: { type: 'integer', minimum: 1, maximum: 255 },
  page: { type: 'integer', minimum: 0, maximum: 4294967295 },
  sort: { type: 'string', enum: sorts },
  direction: { type: 'string', enum: ['asc', 'desc'] },
});

/** `%` and `_` in a search term are literal characters, not LIKE wildcards. */
export const likePattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
