import { type Expression, type SqlBool, sql } from 'kysely';
import { likePattern, type Page } from '../wire/pagination.js';

/** Case-insensitive `LIKE '%search%'` over several columns, wildcards in the term escaped. */
export function searchAny(columns: readonly string[], search: string): Expression<SqlBool> {
  const pattern = likePattern(search.toLowerCase());
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => sql`lower(${sql.ref(column)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

export interface Listed<T> {
  rows: T[];
  total: number;
}

export const pageLimits = (page: Page) => ({ limit: page.limit, offset: page.offset });
