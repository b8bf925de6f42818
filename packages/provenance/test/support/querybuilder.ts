import { getJson } from './fixtures.js';

/** One `path` entry of `QueryBuilder.as_dict()` for a node, joined to an earlier tag when `join` is given. */
export const node = (entity_type: string, tag: string, join?: [string, string]) => ({
  entity_type,
  orm_base: 'node',
  tag,
  joining_keyword: join?.[0] ?? null,
  joining_value: join?.[1] ?? null,
  edge_tag: null,
  outerjoin: false,
});

/** POSTs a QueryBuilder dictionary (or `raw` text) to `base`'s `/api/v4/querybuilder/`. */
export const postQuery = (base: string, body: unknown, raw?: string) =>
  getJson(`${base}/api/v4/querybuilder/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
