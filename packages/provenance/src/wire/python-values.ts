import { internalError } from './errors.js';
import type { FieldValue, Scalar } from './query-string.js';
import { pyFloat } from './structure.js';

/**
 * The Python objects the reference's query-string grammar yields (`int`, `float`, `str`, `bool`,
 * `DatetimePrecision`, `list`), with the behaviour of the builtins its code applies to them.
 */

const isObjectScalar = (v: Scalar, kind: 'float' | 'datetime') =>
  typeof v === 'object' && v !== null && (v as { kind: string }).kind === kind;

/** `type(value).__name__`. */
export function pyTypeName(value: FieldValue): string {
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'int';
  return isObjectScalar(value, 'float') ? 'float' : 'DatetimePrecision';
}

function pyStringRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const escaped = value.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}

/** `repr(value)` (a `DatetimePrecision` has no stable repr; its type name stands in). */
export function pyRepr(value: FieldValue): string {
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'string') return pyStringRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (value.kind === 'float') return pyFloat(value.value);
  return '<DatetimePrecision>';
}

/** `str(value)`: strings as they are, everything else as its repr. */
export const pyStr = (value: FieldValue): string => (typeof value === 'string' ? value : pyRepr(value));

/** Python's `int(str)`: optional blanks and sign, digits with single underscores between them. */
const INT_TEXT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/**
 * `int(value)`: ints as they are, booleans 0/1, floats truncated, numeric strings (`"5"`, `" 5 "`, `"1_000"`)
 * parsed; other strings raise the `ValueError` the caller names, other types a `TypeError` (HTTP 500).
 */
export function pyInt(value: FieldValue, valueError: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    if (!INT_TEXT.test(value)) throw internalError(valueError);
    return Number(value.replace(/[\s_]/g, ''));
  }
  if (!Array.isArray(value) && value.kind === 'float') {
    if (!Number.isFinite(value.value)) throw internalError('cannot convert float infinity to integer');
    return Math.trunc(value.value);
  }
  throw internalError(
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`,
  );
}

/** `isinstance(value, int)` (which booleans pass): the check `QueryBuilder.limit` makes. */
export function pyIntInstance(value: FieldValue): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** `bool(value)`: empty strings, zeros, `False` and empty lists are false. */
export function pyTruthy(value: FieldValue): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return value.kind === 'datetime' || value.value !== 0;
  return value !== '' && value !== 0 && value !== false;
}

/** `repr()` of a JSON value as Python's `json` module loads it (whole numbers as ints: JSON text is gone). */
export function pyReprJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyReprJson).join(', ')}]`;
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pyStringRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloat(value);
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pyStringRepr(k)}: ${pyReprJson(v)}`).join(', ')}}`;
}

/** `type(value).__name__` of a JSON value as Python loads it. */
export function pyTypeNameJson(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return { string: 'str', boolean: 'bool', object: 'dict' }[typeof value as 'string'] ?? 'object';
}
