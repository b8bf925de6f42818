import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexPrefilter } from '../src/storage/aiida/conditions.js';
import { ADD, getJson, type RunningApi, serveArchive } from './support/fixtures.js';

describe('substring filters on a SQLite cache copy use the FTS5 trigram index', () => {
  it.each([
    ['label', 'like', '%arith%', true],
    ['description', 'like', '%number%', true],
    ['label', 'like', '%ar%', false],
    ['label', 'like', 'arith%', true],
    ['label', 'like', '%a_ith%', true],
    ['label', 'like', '%a*ith%', true],
    ['label', 'like', '%ar_th%', false],
    ['uuid', 'like', '%abcd%', false],
    ['label', '==', '%arith%', false],
  ] as const)('%s %s %s → prefilter %s', (column, op, value, expected) => {
    const prefilter = indexPrefilter({ dialect: 'sqlite', nodeText: true }, 'db_dbnode', { ranges: false });
    expect(prefilter?.({ column, op, value }, sql.ref(`e.${column}`)) !== undefined).toBe(expected);
  });

  it('has no prefilter without the text index, nor on PostgreSQL', () => {
    expect(indexPrefilter({ dialect: 'sqlite', nodeText: false }, 'db_dbnode', { ranges: false })).toBeUndefined();
    expect(indexPrefilter({ dialect: 'postgres', nodeText: true }, 'db_dbnode')).toBeUndefined();
  });

  let api: RunningApi;
  beforeAll(async () => {
    api = await serveArchive(ADD, 'sqlite');
  });
  afterAll(() => api.stop());

  it.each([
    ['label=like="%arith%"', ['arithmetic.add']],
    ['description=like="%number%"', ['arithmetic.add']],
    ['description=like="%Number%"', []],
    ['label=like="%metic.a%"', ['arithmetic.add']],
    ['label=like="%ar%"', ['arithmetic.add']],
  ])('GET /nodes?%s answers exactly (case-sensitive, totals included)', async (query, labels) => {
    const { response, body } = await getJson(`${api.base}/api/v4/nodes?${query}`);
    expect(body.data.nodes.map((n: { label: string }) => n.label)).toEqual(labels);
    expect(response.headers.get('x-total-count')).toBe(String(labels.length));
  });
});
