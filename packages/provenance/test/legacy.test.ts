import { describe, expect, it } from 'vitest';
import { migrateLinkType, migrateNodeType, migrateTime } from '../src/archive/legacy-migrations.js';
import { FIXTURES, getJson, serveArchive } from './support/fixtures.js';

describe('legacy migrations', () => {
  it.each([
    [
      'calculation.job.quantumespresso.pw.PwCalculation.',
      null,
      'process.calculation.calcjob.CalcJobNode.',
      'aiida.calculations:quantumespresso.pw',
    ],
    ['code.Code.', null, 'data.core.code.Code.', null],
    ['data.parameter.ParameterData.', '', 'data.core.dict.Dict.', null],
    ['data.dict.Dict.', '', 'data.core.dict.Dict.', null],
    ['data.array.kpoints.KpointsData.', '', 'data.core.array.kpoints.KpointsData.', null],
    ['data.core.int.Int.', null, 'data.core.int.Int.', null],
    ['calculation.work.WorkCalculation.', 'x.y', 'process.workflow.workchain.WorkChainNode.', 'x.y'],
    ['data.quantumespresso.foo.Foo.', null, 'data.quantumespresso.foo.Foo.', null],
  ])('%s → %s', (nodeType, processType, expectedType, expectedProcess) => {
    expect(migrateNodeType(nodeType, processType)).toEqual({ nodeType: expectedType, processType: expectedProcess });
  });

  it.each([
    ['inputlink', 'data.core.dict.Dict.', 'process.calculation.calcjob.CalcJobNode.', 'input_calc'],
    ['input', 'data.core.dict.Dict.', 'process.workflow.workchain.WorkChainNode.', 'input_work'],
    ['createlink', 'process.calculation.calcjob.CalcJobNode.', 'data.core.dict.Dict.', 'create'],
    [null, 'process.calculation.calcjob.CalcJobNode.', 'data.core.dict.Dict.', 'create'],
    [null, 'data.core.dict.Dict.', 'process.calculation.calcjob.CalcJobNode.', 'input_calc'],
    [null, 'process.workflow.workchain.WorkChainNode.', 'process.calculation.calcjob.CalcJobNode.', 'call_calc'],
    ['return', 'process.workflow.workchain.WorkChainNode.', 'data.core.dict.Dict.', 'return'],
  ])('link %s from %s to %s → %s', (type, input, output, expected) => {
    expect(migrateLinkType(type, input, output)).toBe(expected);
  });

  it('normalises archive times to naive UTC text', () => {
    expect(migrateTime('2015-06-04T10:58:44.000000')).toBe('2015-06-04 10:58:44.000000');
    expect(migrateTime('2015-06-04T12:58:44.5+02:00')).toBe('2015-06-04 10:58:44.500000');
  });
});

const CALC = '3b429fd4-601c-4473-add5-7cbb76cf38cb';
const SIMPLE_VERSIONS = ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '0.10', '0.11', '0.12', '0.13'];

describe('legacy archives are converted once and served like current ones', () => {
  it.each([
    ...SIMPLE_VERSIONS.map((v) => `export/migrate/export_${v}_simple.aiida`),
    'export/migrate/export_0.4_simple.tar.gz',
    'export/migrate/export_0.2_simple.tar.gz',
  ])('%s', async (file) => {
    const api = await serveArchive(`${FIXTURES}/${file}`, 'sqlite');
    try {
      const get = async (path: string) => (await getJson(`${api.base}/api/v4${path}`)).body;
      const stats = await get('/nodes/statistics');
      expect(stats.data.total).toBe(10);
      expect(stats.data.types).toMatchObject({
        'data.core.code.Code.': 1,
        'data.core.dict.Dict.': 3,
        'data.core.array.kpoints.KpointsData.': 1,
        'process.calculation.calcjob.CalcJobNode.': 1,
      });
      const incoming = await get(`/nodes/${CALC}/links/incoming?orderby=id`);
      expect(incoming.data.incoming.map((n: { link_type: string }) => n.link_type)).toEqual(
        Array(4).fill('input_calc'),
      );
      const outgoing = await get(`/nodes/${CALC}/links/outgoing`);
      expect(outgoing.data.outgoing.map((n: { link_type: string }) => n.link_type)).toEqual(Array(4).fill('create'));
      const attributes = (await get(`/nodes/${CALC}/contents/attributes`)).data.attributes;
      expect(attributes).toMatchObject({ process_state: 'finished', exit_status: 0, sealed: true });
      expect(Object.keys(attributes).filter((k) => k.startsWith('_') || k === 'state')).toEqual([]);
      const computer = (await get('/computers')).data.computers[0];
      expect([computer.label, computer.scheduler_type, computer.transport_type]).toEqual([
        'bellatrix',
        'core.slurm',
        'core.ssh',
      ]);
      expect((await get(`/calcjobs/${CALC}/input_files`)).data.map((e: { name: string }) => e.name)).toEqual([
        '.aiida',
        '.gitignore',
        '_aiidasubmit.sh',
        'aiida.in',
        'out',
        'pseudo',
      ]);
      const input = await fetch(`${api.base}/api/v4/nodes/${CALC}/repo/contents?filename="aiida.in"`);
      expect(await input.text()).toContain('&CONTROL');
      expect((await get('/groups')).data.groups.map((g: { type_string: string }) => g.type_string).sort()).toEqual(
        file.includes('0.1_') || file.includes('0.2_')
          ? expect.any(Array)
          : ['core', 'core.auto', 'core.import', 'core.upf'],
      );
    } finally {
      await api.stop();
    }
  });

  it.each([
    ['export/migrate/0.10_dangling_link.aiida'],
    ['export/migrate/0.10_null_fields.aiida'],
    ['export/migrate/0.10_unknown_nodes_in_group.aiida'],
    ['export/migrate/export_0.4_no_Nodes.aiida'],
  ])('copes with %s', async (file) => {
    const api = await serveArchive(`${FIXTURES}/${file}`, 'sqlite');
    try {
      const { status, body } = await getJson(`${api.base}/api/v4/nodes`);
      expect(status).toBe(200);
      expect(Array.isArray(body.data.nodes)).toBe(true);
    } finally {
      await api.stop();
    }
  });
});
