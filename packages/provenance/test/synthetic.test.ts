import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { makeArchive } from '../src/archive/make-archive.js';
import { getJson, type RunningApi, serveArchive } from './support/fixtures.js';

let dir: string;
let archive: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atrium-synthetic-'));
  archive = join(dir, 'synthetic.aiida');
  const made = await makeArchive(archive, { nodes: 300 });
  expect(made.nodes).toBeGreaterThanOrEqual(300);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEachDialect('a generated archive (make-archive --nodes 300) served over HTTP', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(archive, dialect, url());
  });
  afterEach(() => api.stop());
  const get = (path: string) => getJson(`${api.base}/api/v4${path}`);

  it('has the expected graph shape, logs, comments and groups', async () => {
    const stats = await get('/nodes/statistics');
    expect(stats.body.data.total).toBeGreaterThanOrEqual(300);
    expect(stats.body.data.types['process.workflow.workchain.WorkChainNode.']).toBeGreaterThan(10);
    const relax = await get('/nodes?process_type="aiida.workflows:quantumespresso.pw.relax"&limit=1');
    const wc = relax.body.data.nodes[0];
    const report = await get(`/processes/${wc.uuid}/report`);
    expect(report.body.data.logs).toHaveLength(1);
    expect(report.body.data.logs[0]).toMatchObject({ dbnode_id: wc.id, levelname: 'REPORT' });
    expect(Object.keys(report.body.data.logs[0]).sort()).toEqual([
      'dbnode_id',
      'levelname',
      'loggername',
      'message',
      'time',
    ]);
    expect((await get(`/processes/${wc.id}/report`)).body.data.logs).toHaveLength(1);

    const tree = await get(`/nodes/${wc.uuid}/links/tree?in_limit=10&out_limit=10`);
    expect(tree.body.data.nodes[0].incoming.map((n: { link_type: string }) => n.link_type)).toEqual([
      'input_work',
      'input_work',
      'input_work',
    ]);
    expect(tree.body.data.nodes[0].outgoing.some((n: { link_type: string }) => n.link_type === 'call_work')).toBe(true);

    const structures = await get('/nodes?node_type="data.core.structure.StructureData."&limit=1');
    const comments = await get(`/nodes/${structures.body.data.nodes[0].uuid}/contents/comments`);
    expect(comments.body.data.comments).toEqual([
      expect.objectContaining({ message: 'Reference structure 0', user: 'AiiDA Daemon' }),
    ]);
    expect((await get('/groups')).body.data.groups.map((g: { label: string }) => g.label)).toEqual([
      'structures/initial',
      'relax/all',
      'relax/failed',
    ]);
  });

  it('serves calcjob files and repository contents from the archive', async () => {
    const pw = (await get('/nodes?process_type="aiida.calculations:quantumespresso.pw"&limit=1')).body.data.nodes[0];
    expect((await get(`/calcjobs/${pw.uuid}/input_files`)).body.data).toEqual([
      { name: '_aiidasubmit.sh', type: 'FILE' },
      { name: 'aiida.in', type: 'FILE' },
    ]);
    expect((await get(`/calcjobs/${pw.uuid}/output_files`)).body.data).toEqual([{ name: 'aiida.out', type: 'FILE' }]);
    const input = await fetch(`${api.base}/api/v4/nodes/${pw.uuid}/repo/contents?filename="aiida.in"`);
    expect(await input.text()).toMatch(/^&CONTROL\n/);
  });

  it('answers a QueryBuilder attribute filter joined through a group', async () => {
    const response = await fetch(`${api.base}/api/v4/querybuilder`, {
      method: 'POST',
      body: JSON.stringify({
        path: [
          { entity_type: 'group.core', orm_base: 'group', tag: 'g' },
          { entity_type: '', orm_base: 'node', tag: 'wc', joining_keyword: 'with_group', joining_value: 'g' },
          {
            entity_type: 'data.core.dict.Dict.',
            orm_base: 'node',
            tag: 'p',
            joining_keyword: 'with_outgoing',
            joining_value: 'wc',
          },
        ],
        filters: { g: { label: 'relax/all' }, p: { 'attributes.SYSTEM.ecutwfc': { '>=': 45 } } },
        project: { wc: ['id'], p: ['attributes.SYSTEM.ecutwfc'] },
        limit: 5,
      }),
    });
    const body = (await response.json()) as { data: { p: Record<string, number>[] } };
    expect(response.status).toBe(200);
    for (const row of body.data.p) expect(row['attributes.SYSTEM.ecutwfc']).toBeGreaterThanOrEqual(45);
  });
});
