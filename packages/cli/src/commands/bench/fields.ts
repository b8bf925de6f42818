import { UsageError } from '../../usage.js';
import { type OptionSpec, type OptionSpecs, parseNumber, type Values } from './args.js';
import type { QueryValue } from './client.js';

/**
 * How one option becomes one request field. `elided`, `elided-number`: `_` means null (unset).
 * `archive`: the `--archive`/`--unarchive` pair → `archived: true|false`.
 */
export type FieldKind =
  | 'string'
  | 'integer'
  | 'number'
  | 'flag'
  | 'boolean'
  | 'elided'
  | 'elided-number'
  | 'list'
  | 'archive';

export interface Field {
  option: string;
  kind: FieldKind;
  /** Body or query name; defaults to the option with `-` → `_`. */
  name?: string;
  required?: boolean;
  /** The option is read from these environment variables too (`ATRIUM_BENCH_BRANCH`, …). */
  env?: readonly string[];
  /** Multiplies a number (seconds on the command line → milliseconds on the wire). */
  scale?: number;
}

export const field = (option: string, kind: FieldKind = 'string', extra: Partial<Field> = {}): Field => ({
  option,
  kind,
  ...extra,
});

export const required = (option: string, kind: FieldKind = 'string', extra: Partial<Field> = {}): Field =>
  field(option, kind, { ...extra, required: true });

/** Pagination of every list subcommand. */
export const PAGINATION: readonly Field[] = [
  field('sort'),
  field('direction'),
  field('per-page', 'integer'),
  field('page', 'integer'),
];

export function fieldOptions(fields: readonly Field[]): OptionSpecs {
  const specs: Record<string, OptionSpec> = {};
  for (const f of fields) {
    if (f.kind === 'archive') {
      specs.archive = { type: 'boolean' };
      specs.unarchive = { type: 'boolean' };
    } else {
      specs[f.option] = { type: f.kind === 'flag' ? 'boolean' : 'string', multiple: f.kind === 'list' };
    }
  }
  return specs;
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false };

function fieldValue(f: Field, values: Values): unknown {
  const label = `--${f.option}`;
  if (f.kind === 'archive') {
    if (values.flag('archive') && values.flag('unarchive')) throw new UsageError('--archive and --unarchive conflict');
    return values.flag('archive') ? true : values.flag('unarchive') ? false : undefined;
  }
  if (f.kind === 'flag') return values.flag(f.option) ? true : undefined;
  if (f.kind === 'list') {
    const list = values.list(f.option);
    return list.length > 0 ? list : undefined;
  }
  const raw = values.string(f.option, ...(f.env ?? []));
  if (raw === undefined) return undefined;
  switch (f.kind) {
    case 'integer':
      return parseNumber(label, raw, { integer: true, min: 0 }) * (f.scale ?? 1);
    case 'number':
      return parseNumber(label, raw, {});
    case 'boolean': {
      const value = BOOLEANS[raw];
      if (value === undefined) throw new UsageError(`${label} must be true or false, got '${raw}'`);
      return value;
    }
    case 'elided':
      return raw === '_' ? null : raw;
    case 'elided-number':
      return raw === '_' ? null : parseNumber(label, raw, {});
    default:
      return raw;
  }
}

/** The request object the fields describe; a missing required option is a usage error. */
export function fieldsToObject(fields: readonly Field[], values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = fieldValue(f, values);
    if (value === undefined) {
      if (f.required) throw new UsageError(`missing required option --${f.option}`);
      continue;
    }
    out[f.kind === 'archive' ? 'archived' : (f.name ?? f.option.replaceAll('-', '_'))] = value;
  }
  return out;
}

export const asQuery = (object: Record<string, unknown>) => object as Record<string, QueryValue>;
