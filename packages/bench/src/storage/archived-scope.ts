import { dialectOf } from '@atrium/core';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from './types.js';

/** Columns of a listed row naming its dimensions: a head (whose branch counts), a testbed, a measure. */
export interface DimensionRefs {
  head?: string;
  testbed?: string;
  measure?: string;
}

/**
 * `column` is one of the values `list` selects. PostgreSQL plans `in (select …)` as a semi-join, one more
 * relation in its join search; `= any(array(select …))` is an init plan, run once and planned apart.
 */
function isIn(db: Db, column: string, list: RawBuilder<unknown>) {
  return dialectOf(db as Kysely<unknown>) === 'postgres'
    ? sql`${sql.ref(column)} = any(array(${list}))`
    : sql`${sql.ref(column)} in (${list})`;
}

/**
 * `archivedFilter` without joining the dimension tables: each column is tested against the project's few
 * archived (or non-archived) dimensions, so a count reads the listed table's index alone and the planner
 * has fewer joins to order. `archived=true` keeps rows where any dimension is archived; by default none is.
 */
export function archivedScope(
  db: Db,
  projectUuid: string,
  refs: DimensionRefs,
  archived: boolean,
): Expression<SqlBool> {
  const state = archived ? sql`is not null` : sql`is null`;
  const tests = [];
  if (refs.head) {
    const heads = sql`select h.uuid from head h join branch b on b.uuid = h.branch_uuid
      where b.project_uuid = ${projectUuid} and b.archived ${state}`;
    tests.push(isIn(db, refs.head, heads));
  }
  for (const table of ['testbed', 'measure'] as const) {
    const column = refs[table];
    if (column) {
      const rows = sql`select uuid from ${sql.table(table)} where project_uuid = ${projectUuid} and archived ${state}`;
      tests.push(isIn(db, column, rows));
    }
  }
  return sql<SqlBool>`(${sql.join(tests, archived ? sql` or ` : sql` and `)})`;
}
