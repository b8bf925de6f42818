import { type RawBuilder, sql } from 'kysely';
import type { Condition } from '../../wire/full-type.js';
import type { ColumnFilter } from '../../wire/request-params.js';
import { balanced } from './balanced.js';
import type { AiidaDialect } from './open.js';
import { timeParameter } from './rows.js';

type Scalar = string | number | boolean | Date;

function parameter(dialect: AiidaDialect, value: Scalar): unknown {
  if (value instanceof Date) return timeParameter(dialect, value);
  if (typeof value === 'boolean' && dialect === 'sqlite') return value ? 1 : 0;
  return value;
}

/** One column comparison (`value === null` means IS [NOT] NULL). */
export function compileFilter(
  filter: ColumnFilter,
  column: RawBuilder<unknown>,
  dialect: AiidaDialect,
): RawBuilder<unknown> {
  const { op, value } = filter;
  if (value === null) return op === '!=' ? sql`${column} is not null` : sql`${column} is null`;
  const list = (Array.isArray(value) ? value : [value]).map((v) => parameter(dialect, v));
  const one = Array.isArray(value) ? list[0] : parameter(dialect, value);
  switch (op) {
    case '==':
      return sql`${column} = ${one}`;
    case '!=':
      return sql`${column} <> ${one}`;
    case '>':
      return sql`${column} > ${one}`;
    case '<':
      return sql`${column} < ${one}`;
    case '>=':
      return sql`${column} >= ${one}`;
    case '<=':
      return sql`${column} <= ${one}`;
    case 'like':
      // SQLite would drive a LIKE prefix range through the (node_type, process_type) index and then sort
      // the whole range for ORDER BY id LIMIT n; `+` keeps it a filter (0.5 s → 5 ms on 1M nodes).
      return dialect === 'sqlite' ? sql`+${column} like ${one} escape '\\'` : sql`${column} like ${one} escape '\\'`;
    case 'ilike':
      return sql`lower(${column}) like lower(${one}) escape '\\'`;
    case 'in':
      return sql`${column} in (${sql.join(list)})`;
    case '!in':
      return sql`${column} not in (${sql.join(list)})`;
  }
}

/**
 * Compiles a condition tree to a SQL boolean. `column` maps a (validated) column name to its SQL
 * reference, so the same tree can target an aliased or joined table.
 */
export function compileCondition(
  condition: Condition,
  column: (name: string) => RawBuilder<unknown>,
  dialect: AiidaDialect,
): RawBuilder<unknown> {
  if ('and' in condition)
    return balanced(
      condition.and.map((c) => compileCondition(c, column, dialect)),
      'and',
    );
  if ('or' in condition)
    return balanced(
      condition.or.map((c) => compileCondition(c, column, dialect)),
      'or',
    );
  return compileFilter(condition, column(condition.column), dialect);
}
