import { fullTypeOf } from './full-type.js';

type Json = Record<string, unknown>;

/** `attributes_filter` on a list: exactly the requested keys, `null` where missing. */
export function pickWithNulls(values: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) out[key] = values[key] ?? null;
  return out;
}

/** `attributes_filter` on `contents/attributes`: the requested keys that exist. */
export function pickExisting(values: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (key in values) out[key] = values[key];
  return out;
}

export interface JsonSelection {
  attributes: boolean;
  attributesFilter?: readonly string[] | undefined;
  extras: boolean;
  extrasFilter?: readonly string[] | undefined;
}

/** A node list record: the projected columns, `full_type`, and the attributes/extras asked for. */
export function nodeRecord(row: Json, selection: JsonSelection): Json {
  row.full_type =
    'node_type' in row || 'process_type' in row
      ? fullTypeOf(row.node_type as string | null, row.process_type as string | null)
      : null;
  for (const which of ['attributes', 'extras'] as const) {
    if (!selection[which]) continue;
    const values = (row[which] ?? {}) as Json;
    const filter = which === 'attributes' ? selection.attributesFilter : selection.extrasFilter;
    row[which] = filter ? pickWithNulls(values, filter) : values;
  }
  return row;
}
