import { inputError, validationError } from './errors.js';
import type { DatetimeValue, FieldValue, Operator, QueryField, Scalar } from './query-string.js';

/** One column condition of the query string, after the reference's operator mapping. */
export interface ColumnFilter {
  column: string;
  op: '==' | '!=' | '>' | '<' | '>=' | '<=' | 'like' | 'ilike' | 'in' | '!in';
  value: FilterValue;
  /** The value as parsed (Python types), which the QueryBuilder checks against the operator. */
  parsed?: FieldValue;
}

export type FilterValue = string | number | boolean | Date | null | (string | number | boolean | Date)[];

export interface OrderTerm {
  column: string;
  descending: boolean;
}

/**
 * Everything `build_translator_parameters` extracts from the query string. Numbers the reference converts
 * later (`int(limit)` in `set_limit_offset`, `QueryBuilder.limit(in_limit)`) stay as parsed until then.
 */
export interface RequestParams {
  limit?: FieldValue;
  offset?: FieldValue;
  perpage?: FieldValue;
  orderby: OrderTerm[];
  filters: ColumnFilter[];
  /** The non-reserved fields in their order: the reference's `filters` dictionary is built from them. */
  filterFields: QueryField[];
  attributes: boolean;
  attributesFilter?: string[];
  extras: boolean;
  extrasFilter?: string[];
  fullType?: FieldValue;
  downloadFormat?: FieldValue;
  download: boolean;
  filename?: string;
  inLimit?: FieldValue;
  outLimit?: FieldValue;
  profile?: string;
  /** Whether any field at all was given (projectable_properties refuses query strings). */
  hasQuery: boolean;
}

const RESERVED = [
  'limit',
  'offset',
  'perpage',
  'orderby',
  'download',
  'download_format',
  'filename',
  'in_limit',
  'out_limit',
  'attributes',
  'attributes_filter',
  'extras',
  'extras_filter',
  'full_type',
  'profile',
] as const;
type ReservedKey = (typeof RESERVED)[number];
const RESERVED_SET: ReadonlySet<string> = new Set(RESERVED);

const OPERATOR_MAP: Record<Operator, ColumnFilter['op']> = {
  '=': '==',
  '!=': '!=',
  '>': '>',
  '<': '<',
  '>=': '>=',
  '<=': '<=',
  '=like=': 'like',
  '=ilike=': 'ilike',
  '=in=': 'in',
  '=notin=': '!in',
};

const DATETIME_STEP_MS: Record<number, number> = { 1: 86_400_000, 2: 3_600_000, 3: 60_000, 4: 1_000 };

const isDatetime = (v: unknown): v is DatetimeValue =>
  typeof v === 'object' && v !== null && (v as DatetimeValue).kind === 'datetime';

function plain(value: Scalar): string | number | boolean | Date {
  if (isDatetime(value)) return value.instant;
  return typeof value === 'object' ? value.value : value;
}

function stringList(value: FieldValue): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((v) => String(plain(v)));
}

function columnFilters(field: QueryField): ColumnFilter[] {
  const column = field.key === 'pk' ? 'id' : field.key;
  const op = OPERATOR_MAP[field.operator];
  const { value } = field;
  if (isDatetime(value) && op === '==') {
    const step = DATETIME_STEP_MS[value.precision];
    if (step === undefined) throw validationError('The datetime resolution is not valid.');
    return [
      { column, op: '>=', value: value.instant },
      { column, op: '<', value: new Date(value.instant.getTime() + step) },
    ];
  }
  return [{ column, op, value: Array.isArray(value) ? value.map(plain) : plain(value), parsed: value }];
}

function flag(value: FieldValue | undefined, which: 'attributes' | 'extras'): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  throw validationError(`The ${which} filter is false by default and can only be set to true.`);
}

/** Applies the reference's rules for reserved keys and turns the rest into column filters. */
export function interpretQuery(fields: QueryField[]): RequestParams {
  const counts = new Map<string, number>();
  for (const f of fields) counts.set(f.key, (counts.get(f.key) ?? 0) + 1);
  for (const key of RESERVED) {
    if ((counts.get(key) ?? 0) > 1) throw inputError(`You cannot specify ${key} more than once`);
  }
  const reserved = new Map<ReservedKey, FieldValue>();
  const orderby: OrderTerm[] = [];
  const filters: ColumnFilter[] = [];
  for (const field of fields) {
    if (!RESERVED_SET.has(field.key)) {
      filters.push(...columnFilters(field));
      continue;
    }
    if (field.operator !== '=') throw inputError(`only assignment operator '=' is permitted after '${field.key}'`);
    reserved.set(field.key as ReservedKey, field.value);
  }
  const order = reserved.get('orderby');
  if (order !== undefined) {
    for (const term of stringList(order)) {
      const descending = term.startsWith('-');
      const name = term.replace(/^[+-]/, '');
      orderby.push({ column: name === 'pk' ? 'id' : name, descending });
    }
  }
  const download = reserved.get('download');
  const text = (key: ReservedKey) => {
    const v = reserved.get(key);
    return v === undefined ? undefined : stringList(v).join(',');
  };
  const optionalList = (key: ReservedKey) => {
    const v = reserved.get(key);
    return v === undefined ? undefined : stringList(v);
  };
  return {
    limit: reserved.get('limit'),
    offset: reserved.get('offset'),
    perpage: reserved.get('perpage'),
    orderby,
    filters,
    filterFields: fields.filter((f) => !RESERVED_SET.has(f.key)),
    attributes: flag(reserved.get('attributes'), 'attributes'),
    attributesFilter: optionalList('attributes_filter'),
    extras: flag(reserved.get('extras'), 'extras'),
    extrasFilter: optionalList('extras_filter'),
    fullType: reserved.get('full_type'),
    downloadFormat: reserved.get('download_format'),
    // `download not in ['false', 'False', False]` (resources.py Node.get): quoted or bare.
    download: !(download === false || download === 'False' || download === 'false'),
    filename: text('filename'),
    inLimit: reserved.get('in_limit'),
    outLimit: reserved.get('out_limit'),
    profile: text('profile'),
    hasQuery: fields.length > 0,
  };
}
