import { internalError } from './errors.js';
import { pyRepr, pyStr, pyTypeName } from './python-values.js';
import type { ColumnFilter } from './request-params.js';

/**
 * The operand checks of the QueryBuilder's `get_filter_expr` (storage/psql_dos/orm/querybuilder/main.py) for a
 * query-string filter: `like`/`ilike` take strings only; `in` iterates its operand, so a lone string is its
 * characters (`label=in="ab"` is `label in ('a', 'b')`), a lone number, boolean or date cannot be iterated,
 * and a list may hold one Python type only. All raise as `TypeError`/`ValueError` (HTTP 500).
 */
export function checkOperand(filter: ColumnFilter): ColumnFilter {
  const { op, parsed } = filter;
  if (parsed === undefined) return filter;
  if (op === 'like' || op === 'ilike') {
    if (typeof parsed !== 'string') {
      throw internalError(`Value for operator ${op} has to be a string (you gave ${pyStr(parsed)})`);
    }
    return filter;
  }
  if (op !== 'in' && op !== '!in') return filter;
  if (typeof parsed === 'string') {
    if (parsed === '') throw internalError('Value for operator `in` is an empty list');
    return { ...filter, value: Array.from(parsed) };
  }
  if (!Array.isArray(parsed)) throw internalError('Value for operator `in` could not be iterated');
  if (new Set(parsed.map(pyTypeName)).size > 1) {
    throw internalError(`Value for operator \`in\` contains more than one type: ${pyRepr(parsed)}`);
  }
  return filter;
}
