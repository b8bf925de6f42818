/**
 * SQLite's type affinity, which decides what the reference's comparisons match on an archive (its
 * `sqlite_zip` backend binds values as Python gives them): a column of INTEGER affinity compared with a text
 * that is a well-formed number compares that number (`id="3"` finds node 3), a TEXT column compared with a
 * number compares its text (`label=5` finds the label `5`).
 */

const NUMERIC_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The number a text becomes under INTEGER/NUMERIC affinity, if it is one. */
export function numericText(text: string): number | undefined {
  return NUMERIC_TEXT.test(text) ? Number(text) : undefined;
}

/** A value as a column of INTEGER affinity compares it. */
export function integerAffinity<T>(value: T): T | number {
  if (typeof value !== 'string') return value;
  return numericText(value) ?? value;
}

/** A value as a column of TEXT affinity compares it (booleans are the integers 1 and 0 by then). */
export function textAffinity<T>(value: T): T | string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return value;
}
