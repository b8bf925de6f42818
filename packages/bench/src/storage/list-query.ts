import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
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

/**
 * One page of a filtered query and the total before paging, in two statements run together.
 * `rows` adds the selection and order to the shared filtered query.
 */
export async function paged<DB, TB extends keyof DB, O>(
  // biome-ignore lint/complexity/noBannedTypes: a query with filters but nothing selected yet
  filtered: SelectQueryBuilder<DB, TB, {}>,
  // biome-ignore lint/complexity/noBannedTypes: see above
  rows: (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  page: Page,
): Promise<Listed<O>> {
  const counting = filtered as unknown as SelectQueryBuilder<DB, TB, { n: number }>;
  const [found, count] = await Promise.all([
    rows(filtered).limit(page.limit).offset(page.offset).execute(),
    counting.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: found as O[], total: Number((count as { n: number }).n) };
}

/**
 * `archived=true` lists only rows where one of the joined dimensions is archived; by default only rows
 * where none is.
 */
export function archivedFilter(tables: readonly string[], archived: boolean): Expression<SqlBool> {
  const tests = tables.map((table) => sql`${sql.ref(`${table}.archived`)} is ${archived ? sql`not null` : sql`null`}`);
  return sql<SqlBool>`(${sql.join(tests, archived ? sql` or ` : sql` and `)})`;
}
