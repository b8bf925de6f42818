import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseQueryBuilder } from '../src/wire/querybuilder.js';
import { type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';
import { node, postQuery } from './support/querybuilder.js';

const CALC = '3b429fd4-601c-4473-add5-7cbb76cf38cb';

describe('parseQueryBuilder', () => {
  it('derives the subclassing type filter from entity_type', () => {
    const plan = parseQueryBuilder({ path: [node('data.core.dict.Dict.', 'd')], project: { d: ['id'] } });
    expect(plan.vertices[0]?.typeWhere).toEqual([
      { field: { column: 'node_type', path: [] }, op: 'like', value: 'data.core.dict.%', negated: false },
    ]);
    expect(parseQueryBuilder({ path: [node('', 'n')], project: {} }).vertices[0]?.typeWhere).toEqual([]);
  });

  it('parses filters with JSON paths, negation, and/or', () => {
    const plan = parseQueryBuilder({
      path: [node('', 'n')],
      filters: { n: { 'attributes.a.b': { '>': 3, '!in': [1, 2] }, or: [{ label: 'x' }, { pk: 4 }] } },
      project: { n: ['attributes.a.b'] },
    });
    expect(plan.vertices[0]?.where).toEqual([
      { field: { column: 'attributes', path: ['a', 'b'] }, op: '>', value: 3, negated: false },
      { field: { column: 'attributes', path: ['a', 'b'] }, op: 'in', value: [1, 2], negated: true },
      {
        or: [
          { and: [{ field: { column: 'label', path: [] }, op: '==', value: 'x', negated: false }] },
          { and: [{ field: { column: 'id', path: [] }, op: '==', value: 4, negated: false }] },
        ],
      },
    ]);
    expect(plan.vertices[0]?.project).toEqual([
      { key: 'attributes.a.b', field: { column: 'attributes', path: ['a', 'b'] } },
    ]);
  });

  it.each([
    [
      [1, 2],
      "POSTed data MUST be a valid QueryBuilder.as_dict() dictionary. Got instead (type: <class 'list'>): [1, 2]",
    ],
    [{ project: {} }, "'path'"],
    [{ path: [node('', 'n')] }, "'project'"],
    [{ path: [node('', 'a'), node('', 'b', ['with_parent', 'a'])], project: {} }, "joining keyword 'with_parent'"],
    [
      { path: [{ entity_type: 'group.core', tag: 'g' }, node('', 'b', ['with_ancestors', 'g'])], project: {} },
      'with_ancestors of a group',
    ],
    [{ path: [node('', 'n')], project: { n: ['nope'] } }, 'nope is not a column of node'],
    [{ path: [node('', 'n')], filters: { n: { id: { regex: 'x' } } }, project: {} }, "filter operator 'regex'"],
    [{ path: [node('', 'n')], project: { m: ['id'] } }, 'Tag m is not among the path tags'],
  ])('rejects %j', (body, message) => {
    expect(() => parseQueryBuilder(body)).toThrow(message);
  });
});

describeEachDialect('POST /api/v4/querybuilder on export_main_0001_simple.aiida', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(SIMPLE, dialect, url());
  });
  afterEach(() => api.stop());
  const post = (body: unknown, raw?: string) => postQuery(api.base, body, raw);

  it('projects columns, orders and answers the envelope without full_type', async () => {
    const { body, response } = await post({
      path: [node('process.calculation.CalculationNode.', 'calc')],
      filters: { calc: { node_type: { like: 'process.calculation.%' } } },
      project: { calc: [{ id: {} }, { uuid: {} }, { user_id: {} }] },
      project_map: {},
      order_by: [{ calc: [{ id: { order: 'desc' } }] }],
      limit: null,
      offset: null,
      distinct: false,
    });
    expect(body).toEqual({
      data: { calc: [{ id: 28266, user_id: 1, uuid: CALC }] },
      method: 'POST',
      path: '/api/v4/querybuilder/',
      query_string: '',
      resource_type: 'QueryBuilder',
      url: `${api.base}/api/v4/querybuilder/`,
      url_root: `${api.base}/`,
    });
    expect(response.headers.get('x-total-count')).toBe('1');
  });

  it('joins users, outputs with edge projections, and repeats joined rows', async () => {
    const users = await post({
      path: [
        node('', 'n'),
        { entity_type: 'user', orm_base: 'user', tag: 'users', joining_keyword: 'with_node', joining_value: 'n' },
      ],
      filters: { n: { node_type: { like: 'data.core.dict.%' } } },
      project: { n: ['id'], users: ['id', 'email'] },
      order_by: [{ n: ['id'] }],
    });
    expect(users.body.data.users).toEqual(Array(3).fill({ email: 'aiida@localhost', id: 1 }));
    const outputs = await post({
      path: [node('', 'calc'), { ...node('data.Data.', 'out', ['with_incoming', 'calc']), edge_tag: 'link' }],
      filters: { calc: { uuid: CALC }, link: { type: 'create' } },
      project: { calc: [], out: ['id'], link: ['label', 'type'] },
      order_by: [{ out: [{ id: { order: 'asc' } }] }],
    });
    expect(outputs.body.data).toEqual({
      link: [
        { label: 'remote_folder', type: 'create' },
        { label: 'retrieved', type: 'create' },
        { label: 'output_parameters', type: 'create' },
        { label: 'output_array', type: 'create' },
      ],
      out: [{ id: 28267 }, { id: 28268 }, { id: 28269 }, { id: 28270 }],
    });
    const inputs = await post({
      path: [node('', 'calc'), node('', 'in', ['with_outgoing', 'calc'])],
      filters: { calc: { id: 28266 } },
      project: { in: ['id'] },
      order_by: [{ in: ['id'] }],
      limit: 2,
      offset: 1,
    });
    expect(inputs.body.data.in).toEqual([{ id: 28262 }, { id: 28264 }]);
  });

  it('follows the provenance transitively with with_ancestors / with_descendants', async () => {
    const descendants = await post({
      path: [node('', 'code'), node('', 'd', ['with_ancestors', 'code'])],
      filters: { code: { label: 'pw.x' } },
      project: { d: ['id'] },
      order_by: [{ d: ['id'] }],
    });
    expect(descendants.body.data.d.map((r: { id: number }) => r.id)).toEqual([28266, 28267, 28268, 28269, 28270]);
    const ancestors = await post({
      path: [node('data.core.folder.FolderData.', 'f'), node('data.Data.', 'a', ['with_descendants', 'f'])],
      project: { a: ['id'], f: [] },
      order_by: [{ a: ['id'] }],
    });
    expect(ancestors.body.data.a.map((r: { id: number }) => r.id)).toEqual([837, 28262, 28264, 28265]);
  });

  it('filters on attributes with typed JSON operators', async () => {
    const ids = async (filters: unknown) => {
      const { body, status } = await post({
        path: [node('', 'n')],
        filters: { n: filters },
        project: { n: ['id'] },
        order_by: [{ n: ['id'] }],
      });
      expect(status, JSON.stringify(body)).toBe(200);
      return (body.data.n ?? []).map((r: { id: number }) => r.id);
    };
    expect(await ids({ 'attributes.number_of_atoms': { '>': 4 } })).toEqual([28269]);
    expect(await ids({ 'attributes.number_of_atoms': { '>': 5 } })).toEqual([]);
    expect(await ids({ 'attributes.CONTROL.calculation': 'scf' })).toEqual([28262]);
    expect(await ids({ 'attributes.CONTROL.calculation': { like: 's%' } })).toEqual([28262]);
    expect(await ids({ 'attributes.also_bands': true })).toEqual([28263]);
    expect(await ids({ 'attributes.CONTROL.calculation': { '!==': 'nscf' } })).toEqual([28262]);
    expect(await ids({ attributes: { has_key: 'mesh' } })).toEqual([28264]);
    expect(await ids({ 'attributes.mesh': { of_length: 3 } })).toEqual([28264]);
    expect(await ids({ 'attributes.mesh': { contains: [2] } })).toEqual([28264]);
    expect(await ids({ 'attributes.mesh': { contains: [3] } })).toEqual([]);
    expect(await ids({ 'attributes.retrieve_list': { contains: ['aiida.out'] } })).toEqual([28266]);
    expect(await ids({ 'attributes.remote_path': { of_type: 'string' } })).toEqual([28267]);
    expect(await ids({ 'attributes.number_of_atoms': { in: [5, 6] } })).toEqual([28269]);
    expect(await ids({ id: { in: [837, 28270] }, ctime: { '<': '2015-01-01T00:00:00' } })).toEqual([837]);
  });

  it('projects attribute paths and all columns; no rows gives {}', async () => {
    const { body } = await post({
      path: [node('data.core.dict.Dict.', 'd')],
      filters: { d: { 'attributes.number_of_atoms': { '>': 1 } } },
      project: { d: ['id', 'attributes.number_of_atoms', 'attributes.missing'] },
    });
    expect(body.data.d).toEqual([{ 'attributes.missing': null, 'attributes.number_of_atoms': 5, id: 28269 }]);
    const implicit = await post({ path: [node('data.array.kpoints.KpointsData.', 'k')], project: { k: [] } });
    expect(Object.keys(implicit.body.data)).toEqual(['k']);
    expect(implicit.body.data.k[0]).toMatchObject({
      attributes: { mesh: [2, 2, 2], offset: [0, 0, 0] },
      full_type: 'data.array.kpoints.KpointsData.|',
      id: 28264,
    });
    const star = await post({ path: [node('', 'n')], filters: { n: { id: 837 } }, project: { n: [{ '*': {} }] } });
    expect(Object.keys(star.body.data.n[0]).sort()).toEqual([
      'attributes',
      'ctime',
      'dbcomputer_id',
      'description',
      'extras',
      'full_type',
      'id',
      'label',
      'mtime',
      'node_type',
      'process_type',
      'repository_metadata',
      'user_id',
      'uuid',
    ]);
    const none = await post({ path: [node('', 'n')], filters: { n: { id: -1 } }, project: { n: ['id'] } });
    expect([none.body.data, none.response.headers.get('x-total-count')]).toEqual([{}, '0']);
  });

  it('accepts the aiida-explorer payload (group join, plain projections, distinct)', async () => {
    const { status, body } = await post({
      path: [
        node('', 'node'),
        {
          entity_type: 'group.core',
          orm_base: 'group',
          tag: 'core_1',
          joining_keyword: 'with_node',
          joining_value: 'node',
          edge_tag: 'node--core_1',
          outerjoin: false,
        },
      ],
      filters: {
        node: { or: [{ node_type: { like: 'data.core.structure.%' } }] },
        core_1: { type_string: { like: '%' }, or: [{ label: 'g1' }] },
        'node--core_1': {},
      },
      project: { node: ['id', 'uuid', 'node_type', 'label', 'ctime', 'mtime'], core_1: [], 'node--core_1': [] },
      project_map: {},
      order_by: [],
      limit: 50,
      offset: 0,
      distinct: true,
    });
    expect([status, body.data]).toEqual([200, {}]);
  });

  it('reports malformed bodies as the reference does', async () => {
    const bad = await post(undefined, '{not json');
    expect([bad.status, bad.body.message]).toEqual([
      500,
      '400 Bad Request: The browser (or proxy) sent a request that this server could not understand.',
    ]);
    expect((await post(undefined, '')).status).toBe(500);
    expect((await post({ path: [node('', 'n')] })).body).toEqual({ message: "'project'" });
    expect(
      (await post({ path: [node('', 'a'), node('', 'b', ['with_parent', 'a'])], project: {} })).body.message,
    ).toContain("joining keyword 'with_parent'");
  });
});
