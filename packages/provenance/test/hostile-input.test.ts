import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { getJson, type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';
import { node, postQuery } from './support/querybuilder.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** A filter of `and` lists nested `depth` deep, as JSON text (too deep for JSON.stringify). */
const nestedAnd = (depth: number) =>
  `{"path":[{"entity_type":"node.Node.","tag":"n"}],"project":{"n":["id"]},"filters":{"n":${'{"and":['.repeat(depth)}{"id":{">":0}}${']}'.repeat(depth)}}}`;

const qb = (filters: unknown, extra: Record<string, unknown> = {}) => ({
  path: [node('node.Node.', 'n')],
  filters: { n: filters },
  project: { n: ['id'] },
  ...extra,
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

type Case = [
  name: string,
  send: (base: string) => Promise<{ status: number; body: { message: string } }>,
  status: number | Record<string, number>,
  message?: RegExp,
];

/** L1: inputs that reached `internal server error`, and near-limit ones that must keep working. */
const CASES: Case[] = [
  [
    'offset past 2^53 in the query string',
    (b) => getJson(`${b}/api/v4/nodes/?offset=99999999999999999999`),
    400,
    /^Offset cannot be bigger than 9007199254740991$/,
  ],
  [
    'offset=1e300 in the query string',
    (b) => getJson(`${b}/api/v4/nodes/?offset=1e300`),
    400,
    /^Offset cannot be bigger than/,
  ],
  [
    'QueryBuilder offset 1e20',
    (b) => postQuery(b, qb({}, { offset: 1e20 })),
    400,
    new RegExp(`^offset cannot be bigger than ${MAX}$`),
  ],
  [
    'and nested 5,000 deep',
    (b) => postQuery(b, undefined, nestedAnd(5000)),
    400,
    /^QueryBuilder: the body nests lists and dictionaries deeper than 256 levels$/,
  ],
  ['and nested 30 deep', (b) => postQuery(b, undefined, nestedAnd(30)), 200],
  [
    'and nested 33 deep',
    (b) => postQuery(b, undefined, nestedAnd(33)),
    400,
    /^QueryBuilder: the filters of tag n nest 'and'\/'or' deeper than 32 levels$/,
  ],
  [
    'a query string of 1,100 filters (deeper than SQLite parses unbalanced)',
    (b) => getJson(`${b}/api/v4/nodes/?${'id>=0&'.repeat(1100)}limit=1`),
    200,
  ],
  [
    'or of 20,000 terms',
    (b) => postQuery(b, qb({ or: range(20_000).map((id) => ({ id })) })),
    400,
    /^QueryBuilder: more than 5000 filter conditions, list values, projections and order_by terms$/,
  ],
  [
    'or of 1,500 terms (deeper than SQLite parses unbalanced)',
    (b) => postQuery(b, qb({ or: range(1500).map((id) => ({ id })) })),
    200,
  ],
  [
    'in of 100,000 values',
    (b) => postQuery(b, qb({ id: { in: range(100_000) } })),
    400,
    /^QueryBuilder: more than 5000 filter conditions/,
  ],
  ['JSON in of 4,990 values', (b) => postQuery(b, qb({ 'attributes.value': { in: range(4990) } })), 200],
  [
    'contains with a nested list',
    (b) => postQuery(b, qb({ 'attributes.list': { contains: [[1, 2]] } })),
    { sqlite: 400, postgres: 200 },
    /^QueryBuilder: 'contains' of attributes takes numbers, strings and booleans on archives$/,
  ],
  [
    'a with_incoming chain of 60 joins',
    (b) =>
      postQuery(b, {
        path: range(60).map((i) => node('node.Node.', `t${i}`, i ? ['with_incoming', `t${i - 1}`] : undefined)),
        project: { t0: ['id'] },
      }),
    400,
    /^QueryBuilder: the path has 60 entries; at most 32 are served$/,
  ],
  [
    'a with_incoming chain of 32 joins',
    (b) =>
      postQuery(b, {
        path: range(32).map((i) => node('node.Node.', `t${i}`, i ? ['with_incoming', `t${i - 1}`] : undefined)),
        project: { t0: ['id'] },
      }),
    200,
  ],
];

describeEachDialect('hostile inputs answer in the reference error shape, fast', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(SIMPLE, dialect, url());
  });
  afterEach(() => api.stop());

  it('refuses each hostile case with its status and message within 1 s, and serves the near-limit ones', async () => {
    for (const [name, send, expected, message] of CASES) {
      const started = performance.now();
      const { status, body } = await send(api.base);
      const status_ = typeof expected === 'number' ? expected : expected[dialect];
      expect.soft({ name, status }).toEqual({ name, status: status_ });
      if (status_ === 200) continue;
      if (message) expect.soft(body.message, name).toMatch(message);
      expect.soft(performance.now() - started, name).toBeLessThan(1000);
    }
  });
});
