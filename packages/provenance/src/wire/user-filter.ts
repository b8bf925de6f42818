import { internalError } from './errors.js';
import type { FieldValue, QueryField } from './query-string.js';
import { numericText } from './sqlite-affinity.js';

/** A user id no row has: the value compares equal to no integer. */
export const NO_USER = -1;

/** `user_id == value` on SQLite: the id it can equal, or {@link NO_USER}. */
function comparedUserId(value: FieldValue): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'boolean') n = value ? 1 : 0;
  else if (typeof value === 'string') n = numericText(value) ?? Number.NaN;
  else if (!Array.isArray(value) && value.kind === 'float') n = value.value;
  else n = Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : NO_USER;
}

/**
 * `/nodes/statistics` and `/nodes/full_types_count` read `filters['user']['==']` from the dictionary
 * `build_translator_parameters` builds (a key given twice becomes `{'and': [...]}`, a date with `=` an
 * interval `{'and': [...]}`): any other key alone raises `KeyError('user')`, a `user` that is not one plain
 * `=` raises `KeyError('==')` (HTTP 500 `'user'` / `'=='`); other keys next to `user` are ignored.
 */
export function referenceUserFilter(fields: QueryField[]): number | undefined {
  if (fields.length === 0) return undefined;
  const user = fields.filter((f) => f.key === 'user');
  const [only] = user;
  if (!only) throw internalError("'user'");
  const interval = typeof only.value === 'object' && !Array.isArray(only.value) && only.value.kind === 'datetime';
  if (user.length > 1 || only.operator !== '=' || interval) throw internalError("'=='");
  return comparedUserId(only.value);
}
