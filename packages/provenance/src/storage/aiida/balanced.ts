import { type RawBuilder, sql } from 'kysely';

/** `a and b and …` as a balanced tree: SQLite refuses expressions nested deeper than 1,000. */
export function balanced(parts: RawBuilder<unknown>[], operator: 'and' | 'or'): RawBuilder<unknown> {
  if (!parts.length) return operator === 'and' ? sql`1 = 1` : sql`1 = 0`;
  if (parts.length <= 8) return sql`(${sql.join(parts, sql.raw(` ${operator} `))})`;
  const half = Math.ceil(parts.length / 2);
  return sql`(${balanced(parts.slice(0, half), operator)} ${sql.raw(operator)} ${balanced(parts.slice(half), operator)})`;
}
