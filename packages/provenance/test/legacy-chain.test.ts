import { describe, expect, it } from 'vitest';
import { type Json, LEGACY_STEPS, type LegacyExport, migrateLegacyExport } from '../src/archive/legacy-chain.js';
import { toVersion04 } from '../src/archive/legacy-migrations.js';

const CALC = 'process.calculation.calcjob.CalcJobNode.';

/** A minimal export of `version` holding `nodes`, `attributes` (by pk), `computers`, `groups`, `links`. */
function archive(
  version: string,
  parts: { nodes?: Json; attributes?: Json; computers?: Json; groups?: Json; links?: Json[]; conversion?: Json },
): LegacyExport {
  return {
    metadata: {
      export_version: version,
      all_fields_info: {
        Node: { nodeversion: {}, public: {}, label: {} },
        Computer: { name: {}, transport_params: {} },
        Attribute: {},
        Link: {},
      },
      unique_identifiers: { Node: 'uuid', Attribute: null, Link: null },
    },
    data: {
      export_data: { Node: parts.nodes ?? {}, Computer: parts.computers ?? {}, Group: parts.groups ?? {} },
      node_attributes: parts.attributes ?? {},
      node_attributes_conversion: parts.conversion ?? {},
      node_extras: {},
      node_extras_conversion: {},
      links_uuid: parts.links ?? [],
      groups_uuid: {},
    },
  };
}

const step = (version: string, e: LegacyExport) => {
  const found = LEGACY_STEPS[version];
  if (!found) throw new Error(`no step from ${version}`);
  found[1](e);
  return e;
};
const exportData = (e: LegacyExport) => e.data.export_data as Record<string, Record<string, Json>>;

describe('AiiDA legacy migration chain, one step at a time', () => {
  it('0.4 → 0.5 drops Node.nodeversion/public and Computer.transport_params (rows and metadata)', () => {
    const e = step(
      '0.4',
      archive('0.4', {
        nodes: { 1: { uuid: 'a', nodeversion: 3, public: false, label: 'x' } },
        computers: { 1: { name: 'c', transport_params: {} } },
      }),
    );
    expect(exportData(e).Node?.[1]).toEqual({ uuid: 'a', label: 'x' });
    expect(exportData(e).Computer?.[1]).toEqual({ name: 'c' });
    expect(e.metadata.all_fields_info).toMatchObject({ Node: { label: {} }, Computer: { name: {} } });
    expect(Object.keys((e.metadata.all_fields_info as Json).Node as Json)).toEqual(['label']);
  });

  it.each([
    ['FINISHED', { process_state: 'finished', exit_status: 0, process_label: 'Legacy JobCalculation' }],
    ['FAILED', { process_state: 'finished', exit_status: 2, process_label: 'Legacy JobCalculation' }],
    [
      'NEW',
      {
        process_state: 'killed',
        process_status: 'Legacy `JobCalculation` with state `NEW`',
        process_label: 'Legacy JobCalculation',
      },
    ],
    [
      'PARSINGFAILED',
      {
        process_state: 'excepted',
        process_status: 'Legacy `JobCalculation` with state `PARSINGFAILED`',
        process_label: 'Legacy JobCalculation',
      },
    ],
    ['IMPORTED', { state: 'IMPORTED' }],
  ])('0.5 → 0.6 maps a JobCalculation in state %s', (state, expected) => {
    const e = step('0.5', archive('0.5', { nodes: { 1: { node_type: CALC } }, attributes: { 1: { state } } }));
    expect((e.data.node_attributes as Json)[1]).toEqual(expected);
  });

  it('0.5 → 0.6 leaves the state of other nodes, re-attaches UTC to datetimes and drops the conversion maps', () => {
    const e = step(
      '0.5',
      archive('0.5', {
        nodes: { 1: { node_type: 'data.dict.Dict.' } },
        attributes: {
          1: { state: 'FINISHED', when: '2015-06-04T11:18:29.000000', list: ['2015-01-01T00:00:00.000000', 'x'] },
        },
        conversion: { 1: { state: null, when: 'date', list: ['date', null] } },
      }),
    );
    expect((e.data.node_attributes as Json)[1]).toEqual({
      state: 'FINISHED',
      when: '2015-06-04T11:18:29.000000+00:00',
      list: ['2015-01-01T00:00:00.000000+00:00', 'x'],
    });
    expect('node_attributes_conversion' in e.data || 'node_extras_conversion' in e.data).toBe(false);
  });

  it('0.6 → 0.7 seals process nodes, drops the private flags, keeps data nodes, and drops Attribute/Link metadata', () => {
    const e = step(
      '0.6',
      archive('0.6', {
        nodes: { 1: { node_type: CALC }, 2: { node_type: 'data.dict.Dict.' } },
        attributes: {
          1: {
            _sealed: true,
            _finished: true,
            _failed: false,
            _aborted: false,
            _do_abort: false,
            process_state: 'finished',
          },
          2: { _sealed: 1 },
        },
      }),
    );
    expect((e.data.node_attributes as Json)[1]).toEqual({ sealed: true, process_state: 'finished' });
    expect((e.data.node_attributes as Json)[2]).toEqual({ _sealed: 1 });
    expect(Object.keys(e.metadata.all_fields_info as Json)).not.toContain('Attribute');
    expect(Object.keys(e.metadata.unique_identifiers as Json)).not.toContain('Link');
  });

  it('0.6 → 0.7 refuses process nodes in an active state', () => {
    const e = archive('0.6', {
      nodes: { 1: { node_type: CALC, uuid: 'u1' } },
      attributes: { 1: { process_state: 'running' } },
    });
    expect(() => step('0.6', e)).toThrow(/corrupt.*u1/);
  });

  it('0.7 → 0.8 renames `_return` link labels to `result`', () => {
    const e = step('0.7', archive('0.7', { links: [{ label: '_return' }, { label: 'other' }] }));
    expect((e.data.links_uuid as Json[]).map((l) => l.label)).toEqual(['result', 'other']);
  });

  it.each([
    ['user', 'core'],
    ['data.upf', 'core.upf'],
    ['auto.import', 'core.import'],
    ['auto.run', 'core.auto'],
    ['my.plugin', 'my.plugin'],
  ])('0.8 → 0.9 group type %s → %s', (from, to) => {
    const e = step('0.8', archive('0.8', { groups: { 1: { type_string: from } } }));
    expect(exportData(e).Group?.[1]?.type_string).toBe(to);
  });

  it('0.9 → 0.10 changes nothing but the version', () => {
    const before = archive('0.9', { nodes: { 1: { node_type: CALC } } });
    const after = step('0.9', structuredClone(before));
    expect(after).toEqual(before);
  });

  it('0.10 → 0.11 renames Computer.name to label', () => {
    const e = step('0.10', archive('0.10', { computers: { 1: { name: 'bellatrix' } } }));
    expect(exportData(e).Computer?.[1]).toEqual({ label: 'bellatrix' });
    expect(Object.keys((e.metadata.all_fields_info as Json).Computer as Json)).toContain('label');
  });

  it.each([
    ['data.dict.Dict.', '', 'data.core.dict.Dict.', ''],
    ['data.array.kpoints.KpointsData.', '', 'data.core.array.kpoints.KpointsData.', ''],
    [
      'data.remote.stash.folder.RemoteStashFolderData.',
      null,
      'data.core.remote.stash.folder.RemoteStashFolderData.',
      null,
    ],
    ['data.quantumespresso.Foo.', '', 'data.quantumespresso.Foo.', ''],
    [CALC, 'aiida.calculations:arithmetic.add', CALC, 'aiida.calculations:core.arithmetic.add'],
    [CALC, 'aiida.calculations:quantumespresso.pw', CALC, 'aiida.calculations:quantumespresso.pw'],
    [
      'process.workflow.workchain.WorkChainNode.',
      'aiida.workflows:arithmetic.multiply_add',
      'process.workflow.workchain.WorkChainNode.',
      'aiida.workflows:core.arithmetic.multiply_add',
    ],
  ])('0.11 → 0.12 node %s (%s) → %s (%s)', (nodeType, processType, expectedType, expectedProcess) => {
    const e = step('0.11', archive('0.11', { nodes: { 1: { node_type: nodeType, process_type: processType } } }));
    expect(exportData(e).Node?.[1]).toEqual({ node_type: expectedType, process_type: expectedProcess });
  });

  it('0.11 → 0.12 renames schedulers but (as AiiDA) not parser names', () => {
    const e = step(
      '0.11',
      archive('0.11', {
        computers: { 1: { scheduler_type: 'slurm' }, 2: { scheduler_type: 'mine' } },
        attributes: { 1: { parser_name: 'arithmetic.add' } },
      }),
    );
    expect([exportData(e).Computer?.[1]?.scheduler_type, exportData(e).Computer?.[2]?.scheduler_type]).toEqual([
      'core.slurm',
      'mine',
    ]);
    expect((e.data.node_attributes as Json)[1]).toEqual({ parser_name: 'arithmetic.add' });
  });

  it.each([
    ['ssh', 'core.ssh'],
    ['local', 'core.local'],
    ['core.ssh', 'core.ssh'],
  ])('0.12 → 0.13 transport %s → %s', (from, to) => {
    const e = step('0.12', archive('0.12', { computers: { 1: { transport_type: from } } }));
    expect(exportData(e).Computer?.[1]?.transport_type).toBe(to);
  });

  it('runs the whole chain from 0.4 and stops at 0.13', () => {
    const e = archive('0.4', {
      nodes: { 1: { node_type: CALC, process_type: '', nodeversion: 1 } },
      attributes: { 1: { state: 'FINISHED', _sealed: true } },
      computers: { 1: { name: 'c', scheduler_type: 'slurm', transport_type: 'ssh' } },
    });
    migrateLegacyExport(e);
    expect(e.metadata.export_version).toBe('0.13');
    expect((e.data.node_attributes as Json)[1]).toEqual({
      process_state: 'finished',
      exit_status: 0,
      process_label: 'Legacy JobCalculation',
      sealed: true,
    });
    expect(exportData(e).Computer?.[1]).toEqual({
      label: 'c',
      scheduler_type: 'core.slurm',
      transport_type: 'core.ssh',
    });
    expect(() => migrateLegacyExport({ metadata: { export_version: '0.3' }, data: {} })).toThrow(/0\.3/);
  });

  it('brings 0.1 … 0.3 exports to the 0.4 layout first', () => {
    const e: LegacyExport = {
      metadata: { export_version: '0.2', all_fields_info: {}, unique_identifiers: {} },
      data: {
        export_data: {
          'aiida.backends.djsite.db.models.DbNode': {
            1: { uuid: 'c', type: 'calculation.job.quantumespresso.pw.PwCalculation.' },
            2: { uuid: 'd', type: 'data.parameter.ParameterData.' },
          },
          'aiida.backends.djsite.db.models.DbGroup': { 1: { name: 'g', type: '' } },
        },
        links_uuid: [{ input: 'd', output: 'c', label: 'parameters' }],
      },
    };
    toVersion04(e);
    expect(e.metadata.export_version).toBe('0.4');
    expect(exportData(e).Node).toEqual({
      1: { uuid: 'c', node_type: CALC, process_type: 'aiida.calculations:quantumespresso.pw' },
      2: { uuid: 'd', node_type: 'data.core.dict.Dict.', process_type: '' },
    });
    expect(exportData(e).Group?.[1]).toEqual({ label: 'g', type_string: 'core' });
    expect((e.data.links_uuid as Json[])[0]?.type).toBe('input_calc');
  });
});
