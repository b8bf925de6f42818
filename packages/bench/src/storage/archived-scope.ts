import { type Expression, type SqlBool, sql } from 'kysely';

/** Columns of a listed row naming its dimensions: a head (whose branch counts), a testbed, a measure. */
export interface DimensionRefs {
  head?: string;
  testbed?: string;
  measure?: string;
}

/**
 * `archivedFilter` without joining the dimension tables: each column is tested against the project's few
 * archived (or non-archived) dimensions, so a count reads the listed table's index alone and the planner
 * has fewer joins to order. `archived=true` keeps rows where any dimension is archived; by default none is.
 */
export function archivedScope(projectUuid: string, refs: DimensionRefs, archived: boolean): Expression<SqlBool> {
  const state = archived ? sql`is not null` : sql`is null`;
  const tests = [];
  if (refs.head) {
    tests.push(sql`${sql.ref(refs.head)} in (select h.uuid from head h join branch b on b.uuid = h.branch_uuid
      where b.project_uuid = ${projectUuid} and b.archived ${state})`);
  }
  for (const table of ['testbed', 'measure'] as const) {
    const column = refs[table];
    if (column) {
      tests.push(sql`${sql.ref(column)} in (select uuid from ${sql.table(table)}
        where project_uuid = ${projectUuid} and archived ${state})`);
    }
  }
  return sql<SqlBool>`(${sql.join(tests, archived ? sql` or ` : sql` and `)})`;
}
