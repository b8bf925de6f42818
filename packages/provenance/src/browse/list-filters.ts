import { type Condition, escapeLike } from '../wire/full-type.js';

/** Rows per page of a node list. */
export const PAGE_SIZE = 50;
/** The deepest page served (offsets past it would make the database skip millions of rows). */
export const MAX_PAGE = 20_000;
const MAX_LABEL = 200;

/** The filters of `/browse/{source}/nodes?…`, as they appear in the URL. */
export interface ListFilters {
  nodeType: string;
  /** Set when the URL names a process type (`''` selects nodes without one). */
  processType?: string;
  label: string;
  /** Inclusive `YYYY-MM-DD` (UTC) bounds of `ctime`. */
  from: string;
  to: string;
  page: number;
}

type Query = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[value.length - 1] : value;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayStart(day: string): Date | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? undefined : date;
}

/** Reads the filters from a query string; what cannot be used is named in `errors` (and left out). */
export function parseListFilters(query: Query): { filters: ListFilters; errors: string[] } {
  const errors: string[] = [];
  const text = (name: string) => (one(query[name]) ?? '').trim();
  const filters: ListFilters = { nodeType: text('node_type'), label: text('label'), from: '', to: '', page: 1 };
  const processType = one(query.process_type);
  if (processType !== undefined) filters.processType = processType.trim();
  if (filters.label.length > MAX_LABEL) {
    errors.push(`The label filter is longer than ${MAX_LABEL} characters.`);
    filters.label = '';
  }
  for (const bound of ['from', 'to'] as const) {
    const value = text(bound);
    if (value && !dayStart(value)) errors.push(`"${value}" is not a date (YYYY-MM-DD).`);
    else filters[bound] = value;
  }
  const page = text('page');
  if (page) {
    const n = Number(page);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
      errors.push(`The page must be a whole number from 1 to ${MAX_PAGE}.`);
    else filters.page = n;
  }
  return { filters, errors };
}

/** The storage conditions of the filters: type prefix, exact process type, label substring, creation days. */
export function listConditions(filters: ListFilters): Condition[] {
  const conditions: Condition[] = [];
  if (filters.nodeType) conditions.push({ column: 'node_type', op: 'like', value: `${escapeLike(filters.nodeType)}%` });
  if (filters.processType !== undefined) {
    conditions.push(
      filters.processType
        ? { column: 'process_type', op: '==', value: filters.processType }
        : {
            or: [
              { column: 'process_type', op: '==', value: '' },
              { column: 'process_type', op: '==', value: null },
            ],
          },
    );
  }
  if (filters.label) conditions.push({ column: 'label', op: 'like', value: `%${escapeLike(filters.label)}%` });
  const from = dayStart(filters.from);
  if (from) conditions.push({ column: 'ctime', op: '>=', value: from });
  const to = dayStart(filters.to);
  if (to) conditions.push({ column: 'ctime', op: '<', value: new Date(to.getTime() + 86_400_000) });
  return conditions;
}

/** The query string of the filters (empty ones left out), for links that keep or change them. */
export function listHref(base: string, filters: ListFilters, change: Partial<ListFilters> = {}): string {
  const merged = { ...filters, ...change };
  const params = new URLSearchParams();
  if (merged.nodeType) params.set('node_type', merged.nodeType);
  if (merged.processType !== undefined) params.set('process_type', merged.processType);
  if (merged.label) params.set('label', merged.label);
  if (merged.from) params.set('from', merged.from);
  if (merged.to) params.set('to', merged.to);
  if (merged.page > 1) params.set('page', String(merged.page));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}
