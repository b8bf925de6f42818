import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseQueryBuilder } from '../src/wire/querybuilder.js';
import { type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';
import { node, postQuery } from './support/querybuilder.js';

const DICT = 'data.core.dict.Dict.';
const outer = (entry: ReturnType<typeof node>) => ({ ...entry, outerjoin: true });

describe('parseQueryBuilder: func, cast, outerjoin', () => {
  it('keeps func and cast on JSON values only, and outerjoin after the first entry', () => {
    const plan = parseQueryBuilder({
      path: [outer(node('', 'n')), outer(node('', 'm', ['with_incoming', 'n']))],
      project: { n: [{ id: { func: 'count', cast: 'f' } }, { 'attributes.x': { func: 'max', cast: 'i' } }] },
    });
    const ordered = parseQueryBuilder({
      path: [node('', 'm')],
      project: { m: ['id'] },
      order_by: [{ m: [{ 'extras.y': { order: 'desc', cast: 't' } }] }],
    });
    expect(plan.vertices.map((v) => v.outer)).toEqual([false, true]);
    expect(plan.vertices[0]?.project).toEqual([
      { key: 'id', field: { column: 'id', path: [] }, func: 'count' },
      { key: 'attributes.x', field: { column: 'attributes', path: ['x'] }, cast: 'i', func: 'max' },
    ]);
    expect(ordered.order).toEqual([
      { tag: 'm', field: { column: 'extras', path: ['y'] }, cast: 't', descending: true },
    ]);
  });

  it.each([
    [{ n: [{ id: { func: 'sum' } }] }, '\nInvalid function specification sum'],
    [{ n: [{ 'attributes.x': { cast: 'x' } }] }, 'Unknown casting key x'],
    [{ n: [{ '*': { func: 'count' } }] }, "Very sorry, but functions on the aliased class\n(You specified '*')"],
    [{ n: ['id', { id: { func: 'count' } }] }, 'You are projecting the same key multiple times within the same node'],
    [{ n: ['uuid', { id: { func: 'count' } }] }, 'projecting uuid next to a func projection'],
    [{ n: [{ 'attributes.x': { func: 'max' } }] }, 'max of the JSON value attributes.x without a cast'],
  ])('rejects the projection %j', (project, message) => {
    expect(() => parseQueryBuilder({ path: [node('', 'n')], project })).toThrow(message);
  });

  it('rejects ordering next to aggregates', () => {
    const body = { path: [node('', 'n')], project: { n: [{ id: { func: 'count' } }] }, order_by: { n: 'id' } };
    expect(() => parseQueryBuilder(body)).toThrow('order_by together with func projections');
  });
});

describeEachDialect('QueryBuilder outerjoin, func and cast over HTTP', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(SIMPLE, dialect, url());
  });
  afterEach(() => api.stop());
  const post = async (body: unknown) => {
    const answer = await postQuery(api.base, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  };

  it('outerjoin keeps the rows without a match, with nulls in the joined projections', async () => {
    const query = (target: string, outerjoin: boolean) => ({
      path: [node(DICT, 'd'), { ...node(target, 'c', ['with_incoming', 'd']), edge_tag: 'e', outerjoin }],
      project: { d: ['id'], c: ['id', 'node_type'], e: ['label'] },
      order_by: [{ d: ['id'] }],
    });
    const left = await post(query('process.calculation.calcjob.CalcJobNode.', true));
    expect(left.response.headers.get('x-total-count')).toBe('3');
    expect(left.body.data).toEqual({
      d: [{ id: 28262 }, { id: 28263 }, { id: 28269 }],
      c: [
        {
          id: 28266,
          node_type: 'process.calculation.calcjob.CalcJobNode.',
          full_type: 'process.calculation.calcjob.CalcJobNode.|',
        },
        { id: null, node_type: null, full_type: null },
        { id: null, node_type: null, full_type: null },
      ],
      e: [{ label: 'parameters' }, { label: null }, { label: null }],
    });
    const inner = await post(query('process.calculation.calcjob.CalcJobNode.', false));
    expect(inner.body.data.d).toEqual([{ id: 28262 }]);
    // The link exists but leads to a node of another type: no half-null row, the dictionary stays once.
    const otherType = await post(query('data.core.remote.RemoteData.', true));
    expect(otherType.body.data.e).toEqual([{ label: null }, { label: null }, { label: null }]);
    expect(otherType.body.data.c.map((c: { id: number | null }) => c.id)).toEqual([null, null, null]);
  });

  it('outerjoin on a foreign key (the computer of each node) and explicit filters stay in WHERE', async () => {
    const query = (filters: unknown) => ({
      path: [
        node('data.Data.', 'n'),
        {
          entity_type: 'computer',
          orm_base: 'computer',
          tag: 'c',
          joining_keyword: 'with_node',
          joining_value: 'n',
          outerjoin: true,
        },
      ],
      filters,
      project: { n: ['id'], c: ['label'] },
      order_by: [{ n: ['id'] }],
    });
    const all = await post(query({ n: { id: { '<': 28266 } } }));
    expect(all.body.data.c).toEqual([
      { label: 'bellatrix' },
      { label: null },
      { label: null },
      { label: null },
      { label: null },
    ]);
    const filtered = await post(query({ c: { label: 'bellatrix' } }));
    expect(filtered.body.data.n).toEqual([{ id: 837 }, { id: 28267 }]);
  });

  it('projects count, max and min under the column name, one row', async () => {
    const { body, response } = await post({
      path: [node(DICT, 'd')],
      project: {
        d: [
          { id: { func: 'count' } },
          { ctime: { func: 'max' } },
          { uuid: { func: 'min' } },
          { 'attributes.number_of_atoms': { func: 'max', cast: 'i' } },
          { 'attributes.fermi_energy': { func: 'min', cast: 'f' } },
        ],
      },
    });
    expect(response.headers.get('x-total-count')).toBe('1');
    expect(body.data.d).toHaveLength(1);
    expect(body.data.d[0]).toMatchObject({
      id: 3,
      'attributes.number_of_atoms': 5,
      'attributes.fermi_energy': 10.3694188221891,
    });
    expect(body.data.d[0].ctime).toMatch(/ GMT$/);
    expect(typeof body.data.d[0].uuid).toBe('string');
    const minMax = await post({ path: [node(DICT, 'd')], project: { d: [{ id: { func: 'min' } }] } });
    expect(minMax.body.data.d).toEqual([{ id: 28262 }]);
    const none = await post({
      path: [node(DICT, 'd')],
      filters: { d: { id: -1 } },
      project: { d: [{ id: { func: 'count' } }, { label: { func: 'max' } }] },
    });
    expect(none.body.data).toEqual({ d: [{ id: 0, label: null }] });
    const sum = await postQuery(api.base, { path: [node(DICT, 'd')], project: { d: [{ id: { func: 'sum' } }] } });
    expect([sum.status, sum.body]).toEqual([500, { message: '\nInvalid function specification sum' }]);
  });

  it('casts attribute projections and orders by a cast value', async () => {
    const { body } = await post({
      path: [node('', 'n')],
      filters: { n: { id: { in: [28263, 28266, 28269] } } },
      project: {
        n: [
          'id',
          'attributes.process_state',
          { 'attributes.job_id': { cast: 'i' } },
          { 'attributes.scheduler_lastchecktime': { cast: 'd' } },
          { 'attributes.number_of_atoms': { cast: 't' } },
          { 'attributes.also_bands': { cast: 'b' } },
          { 'attributes.fermi_energy': { cast: 'f' } },
          { 'attributes.retrieve_list': { cast: 'j' } },
          { label: { cast: 'f' } },
        ],
      },
      order_by: [{ n: [{ 'attributes.number_of_bands': { cast: 'i', order: 'desc' } }, { id: 'asc' }] }],
    });
    const rows = body.data.n as Record<string, unknown>[];
    expect(rows.map((r) => r.id)).toEqual(dialect === 'postgres' ? [28263, 28266, 28269] : [28269, 28263, 28266]);
    const calc = rows.find((r) => r.id === 28266);
    expect(calc).toMatchObject({
      'attributes.process_state': 'finished',
      'attributes.job_id': 336045,
      'attributes.scheduler_lastchecktime': 'Thu, 04 Jun 2015 11:18:29 GMT',
      'attributes.number_of_atoms': null,
      label: 'Test QE pw.x',
    });
    expect(calc?.['attributes.retrieve_list']).toContain('aiida.out');
    expect(rows.find((r) => r.id === 28263)).toMatchObject({ 'attributes.also_bands': true });
    expect(rows.find((r) => r.id === 28269)).toMatchObject({
      'attributes.number_of_atoms': '5',
      'attributes.fermi_energy': 10.3694188221891,
    });
  });
});
