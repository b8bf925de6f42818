import { internalError } from './errors.js';
import { pyRepr, pyReprJson, pyTypeName, pyTypeNameJson } from './python-values.js';
import type { FieldValue } from './query-string.js';
import type { ColumnFilter } from './request-params.js';

/**
 * The operand checks of `SqlaQueryBuilder.get_filter_expr` (storage/psql_dos/orm/querybuilder/main.py), for
 * query-string filters and QueryBuilder POST filters alike: `like`/`ilike` take strings only; `in` iterates
 * its operand, so a lone string is its characters (`label=in="ab"` is `label in ('a', 'b')`), a lone number,
 * boolean, date or null cannot be iterated, and a list may hold one Python type only; the length operators
 * take ints. All raise `TypeError`/`ValueError` (HTTP 500).
 */
function checked<T>(op: string, value: T, types: { name: (v: unknown) => string; repr: (v: unknown) => string }) {
  if (op === 'like' || op === 'ilike') {
    if (typeof value !== 'string') {
      const shown = types.name(value) === 'str' ? String(value) : types.repr(value);
      throw internalError(`Value for operator ${op} has to be a string (you gave ${shown})`);
    }
    return value;
  }
  if (op === 'of_length' || op === 'longer' || op === 'shorter') {
    if (types.name(value) !== 'int' && types.name(value) !== 'bool') {
      throw internalError('You have to give an integer when comparing to a length');
    }
    return value;
  }
  if (op !== 'in') return value;
  const items = typeof value === 'string' ? Array.from(value) : value;
  if (!Array.isArray(items)) throw internalError('Value for operator `in` could not be iterated');
  if (items.length === 0) throw internalError('Value for operator `in` is an empty list');
  if (new Set(items.map(types.name)).size > 1) {
    throw internalError(`Value for operator \`in\` contains more than one type: ${types.repr(value)}`);
  }
  return items;
}

const PARSED = { name: (v: unknown) => pyTypeName(v as FieldValue), repr: (v: unknown) => pyRepr(v as FieldValue) };
const JSON_VALUES = { name: pyTypeNameJson, repr: pyReprJson };

/** Time columns bind through `TZDateTime.process_bind_param` on SQLite, which reads `value.tzinfo`. */
const TIME_COLUMNS = new Set(['ctime', 'mtime', 'time']);

/** A query-string filter, checked (and an `in` string split) as the reference's QueryBuilder does. */
export function checkOperand(filter: ColumnFilter): ColumnFilter {
  const { op, parsed } = filter;
  if (parsed === undefined) return filter;
  const negated = op === '!in' ? 'in' : op;
  const value = checked(negated, parsed, PARSED);
  const datetime = (v: unknown) => typeof v === 'object' && v !== null && (v as { kind?: string }).kind === 'datetime';
  if (TIME_COLUMNS.has(filter.column) && op !== 'like' && op !== 'ilike') {
    const first = Array.isArray(value) ? value[0] : value;
    if (!datetime(first)) {
      throw internalError(
        `(builtins.AttributeError) '${pyTypeName(first as FieldValue)}' object has no attribute 'tzinfo'`,
      );
    }
  }
  return typeof parsed === 'string' && Array.isArray(value) ? { ...filter, value: value as string[] } : filter;
}

/** A QueryBuilder POST filter operand (a JSON value), checked as {@link checkOperand}; `in` gets its list. */
export function checkQbOperand(op: string, value: unknown): unknown {
  return checked(op, value, JSON_VALUES);
}
