import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeArchive } from '../src/archive/make-archive.js';
import { SHAPES } from '../src/archive/shaped-graph.js';
import { type RunningApi, serveArchive } from './support/fixtures.js';
import { postQuery } from './support/querybuilder.js';

/**
 * The rules derived from aiida-core's restapi code (aiida-rules.test.ts) over real HTTP, on archives
 * `atrium provenance make-archive --shapes …` generates: data this server was not written against.
 */

const scratch = mkdtempSync(join(tmpdir(), 'atrium-shaped-'));
const archive = join(scratch, 'shapes.aiida');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(async () => {
  await makeArchive(archive, { shapes: SHAPES, count: 2 }, 11);
});

interface Answer {
  status: number;
  headers: Headers;
  body: { message?: string; data?: Record<string, unknown> } & Record<string, unknown>;
}

type Node = { id: number; uuid: string; node_type: string; process_type: string | null; ctime: string };

describeEachDialect('AiiDA rules over HTTP on a generated archive of every shape', ({ dialect, url }) => {
  let api: RunningApi;
  const get = async (path: string): Promise<Answer> => {
    const response = await fetch(`${api.base}/api/v4${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
  };
  const nodes = async (query: string): Promise<Node[]> =>
    ((await get(`/nodes?${query}`)).body.data?.nodes ?? []) as Node[];
  const fail = async (path: string) => {
    const { status, body } = await get(path);
    return { status, message: body.message };
  };
  let calc: Node;
  /** The rules run in three tests, each on one served copy (PostgreSQL loads the archive per test). */
  const steps: [string, () => Promise<void>][] = [];
  const step = (name: string, run: () => Promise<void>) => steps.push([name, run]);

  beforeEach(async () => {
    api = await serveArchive(archive, dialect, url());
    [calc] = (await nodes('full_type="process.calculation.calcjob.CalcJobNode.|%"&limit=1')) as [Node];
  });
  afterEach(() => api.stop());

  step('error answers carry Access-Control-Allow-Origin only (api.py error handler, flask-cors)', async () => {
    for (const path of ['/nodes?limit=abc', '/nodes/page/99', `/nodes/${calc.uuid}/links/tree?in_limit=1.5`, '/nope']) {
      const { status, headers } = await get(path);
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(headers.get('access-control-allow-origin'), path).toBe('*');
      expect(headers.get('access-control-expose-headers'), path).toBeNull();
      expect(headers.get('x-total-count'), path).toBeNull();
    }
    expect((await get('/nodes?limit=1')).headers.get('access-control-expose-headers')).toBe('X-Total-Count');
  });

  step('accepts quoted integers where the reference converts or SQLite compares them', async () => {
    expect((await nodes(`id="${calc.id}"`)).map((n) => n.id)).toEqual([calc.id]);
    expect(await nodes('limit="2"')).toHaveLength(2);
    expect(await nodes('limit=2.9')).toHaveLength(2);
    expect(await fail('/nodes?limit="2.5"')).toEqual({ status: 500, message: 'Limit value must be an integer' });
  });

  step('refuses a lone value after in= (QueryBuilder iterates it) and iterates a string', async () => {
    expect(await fail(`/nodes?id=in=${calc.id}`)).toEqual({
      status: 500,
      message: 'Value for operator `in` could not be iterated',
    });
    expect((await nodes(`id=in=${calc.id},${calc.id + 1}`)).map((n) => n.id)).toEqual([calc.id, calc.id + 1]);
    expect((await nodes('id=in="12"')).map((n) => n.id)).toEqual([1, 2]);
    expect(await fail('/nodes?id=in=1,2.0')).toEqual({
      status: 500,
      message: 'Value for operator `in` contains more than one type: [1, 2.0]',
    });
  });

  step('reads a date without a time as its whole day, and refuses a date that does not exist', async () => {
    const day = new Date(calc.ctime).toISOString().slice(0, 10);
    const sameDay = await nodes(`ctime=${day}&limit=400`);
    expect(sameDay.map((n) => n.id)).toContain(calc.id);
    expect(sameDay.every((n) => new Date(n.ctime).toISOString().startsWith(day))).toBe(true);
    expect((await fail('/nodes?ctime=2025-02-30')).status).toBe(404);
  });

  step('limits links/tree as QueryBuilder.limit does', async () => {
    const tree = async (query: string) => (await get(`/nodes/${calc.uuid}/links/tree?${query}`)).body;
    const all = (await tree('')).data as {
      metadata: [{ total_no_of_incomings: number; total_no_of_outgoings: number }];
    };
    expect(all.metadata[0].total_no_of_incomings).toBe(2);
    expect((await tree('in_limit=true&out_limit=0')).data).toMatchObject({
      metadata: [{ sent_no_of_incomings: 1, sent_no_of_outgoings: 0, total_no_of_incomings: 2 }],
    });
    expect((await tree('out_limit=-1&tree_in_limit=1')).data).toMatchObject({
      metadata: [{ sent_no_of_incomings: 2, sent_no_of_outgoings: all.metadata[0].total_no_of_outgoings }],
    });
    for (const bad of ['in_limit=1.0', 'out_limit="1"']) {
      expect(await fail(`/nodes/${calc.uuid}/links/tree?${bad}`)).toEqual({
        status: 500,
        message: 'The limit has to be an integer, or None',
      });
    }
    expect((await fail(`/nodes/${calc.uuid}/links/tree?perpage=2`)).status).toBe(400);
  });

  step('answers download formats by the class the full type loads', async () => {
    const formats = async (fullType: string) => get(`/nodes/download_formats?full_type="${fullType}"`);
    const add = await formats('process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.arithmetic.add');
    expect([add.status, add.body.data]).toEqual([200, {}]);
    expect(
      (await formats('process.calculation.calcjob.CalcJobNode.|aiida.calculations:quantumespresso.pw')).status,
    ).toBe(501);
    expect((await formats('data.array.bands.BandsData.|')).body.data).toEqual({
      'data.array.bands.BandsData.|': expect.arrayContaining(['agr_batch', 'json']),
    });
    const [structure] = await nodes('full_type="data.core.structure.StructureData.|"&limit=1');
    expect(await fail(`/nodes/${structure?.uuid}/download?download_format=5`)).toEqual({
      status: 404,
      message:
        'The format 5 is not supported. The available download formats can be queried using the /nodes/download_formats/ endpoint.',
    });
  });

  step("filters full_types_count and statistics as filters['user']['=='] reads them", async () => {
    const counted = async (query: string) => (await get(`/nodes/full_types_count?${query}`)).body.data;
    expect(await counted('user="1"&label="ignored"')).toEqual(await counted('user=1'));
    expect(await fail('/nodes/full_types_count?user=1&user=2')).toEqual({ status: 500, message: "'=='" });
    expect(await fail('/nodes/statistics?label="x"')).toEqual({ status: 500, message: "'user'" });
    expect((await get('/nodes/statistics?user=abc')).body.data).toEqual({ ctime_by_day: {}, total: 0, types: {} });
  });

  step('refuses QueryBuilder paths over comments and logs and bad limits with its messages', async () => {
    const post = async (body: unknown) => (await postQuery(api.base, body)).body;
    expect(await post({ path: [{ entity_type: 'comment', orm_base: 'comment', tag: 'c' }], project: {} })).toEqual({
      message: 'The type string comment is invalid',
    });
    expect(await post({ path: [{ entity_type: 'log', orm_base: 'log', tag: 'l' }], project: {} })).toEqual({
      message: 'The type string log is invalid',
    });
    expect(await post({ path: [{ entity_type: '', tag: 'n' }], project: {}, limit: '2' })).toEqual({
      message: 'The limit has to be an integer, or None',
    });
    const all = await post({
      path: [{ entity_type: 'data.core.int.Int.', tag: 'n' }],
      project: { n: ['id'] },
      limit: -1,
    });
    expect(all.data?.n).toEqual(expect.arrayContaining([expect.anything(), expect.anything(), expect.anything()]));
  });

  step("lists a calcjob's files, nested directories included", async () => {
    const list = async (query: string) => (await get(`/nodes/${calc.uuid}/repo/list?${query}`)).body.data?.repo_list;
    expect(await list('')).toEqual([
      { name: '.aiida', type: 'DIRECTORY' },
      { name: '_aiidasubmit.sh', type: 'FILE' },
      { name: 'aiida.in', type: 'FILE' },
    ]);
    expect(await list('filename=".aiida"')).toEqual([
      { name: 'calcinfo.json', type: 'FILE' },
      { name: 'job_tmpl.json', type: 'FILE' },
    ]);
  });
  it.each([
    [0, 3],
    [3, 6],
    [6, 9],
  ])('rules %i to %i', async (from, to) => {
    expect(steps).toHaveLength(9);
    for (const [name, run] of steps.slice(from, to)) {
      await run().catch((error: Error) => {
        error.message = `${name}: ${error.message}`;
        throw error;
      });
    }
  });
});

describe('make-archive shapes', () => {
  it('writes every shape with its links, logs, comments and group members', async () => {
    const api = await serveArchive(archive, 'sqlite');
    try {
      const stats = (await (await fetch(`${api.base}/api/v4/nodes/statistics`)).json()) as { data: { types: object } };
      expect(Object.keys(stats.data.types)).toEqual(
        expect.arrayContaining([
          'data.core.array.bands.BandsData.',
          'data.core.array.ArrayData.',
          'data.core.structure.StructureData.',
          'data.core.dict.Dict.',
          'process.calculation.calcjob.CalcJobNode.',
          'process.workflow.workchain.WorkChainNode.',
        ]),
      );
      const groups = await postQuery(api.base, {
        path: [
          { entity_type: 'group.core', tag: 'g' },
          { entity_type: '', tag: 'n', joining_keyword: 'with_group', joining_value: 'g' },
        ],
        project: { n: ['id'] },
      });
      expect(groups.body.data.n.length).toBeGreaterThanOrEqual(2);
    } finally {
      await api.stop();
    }
  });
});
