import {
  type Attributes,
  formatTime,
  GraphBuilder,
  type GraphSink,
  type NodeOptions,
  processAttributes,
  structureAttributes,
} from './graph-builder.js';
import { npy } from './npy-writer.js';

/**
 * Small archives of chosen shapes for tests of the API on data it was not written against: each shape
 * adds `count` instances of one kind of AiiDA content, as AiiDA 2.x stores it (node types, process types,
 * link types and labels, attributes, `.npy` arrays and repository files).
 */
export const SHAPES = [
  'workflows',
  'calcjobs',
  'structures',
  'bands',
  'arrays',
  'dicts',
  'logs',
  'comments',
  'groups',
] as const;
export type Shape = (typeof SHAPES)[number];

const START = Date.UTC(2025, 2, 1);
const ELEMENTS = [['Si', 'Si'], ['Ga', 'As'], ['Ba', 'Ti', 'O', 'O', 'O'], ['Fe'], ['H', 'H', 'O'], ['Mg', 'O']];
const LEVELS = ['REPORT', 'WARNING', 'ERROR', 'INFO'];

export class ShapedGraph extends GraphBuilder {
  private readonly processes: number[] = [];
  private readonly data: number[] = [];

  constructor(
    sink: GraphSink,
    private readonly shapes: readonly Shape[],
    private readonly count: number,
    seed = 7,
  ) {
    super(sink, seed, { uuidVariant: '8', hashInput: (nodeType, id) => `${nodeType}${id}` });
  }

  /** Distinct times a minute apart, crossing day boundaries every 1,440 nodes. */
  protected time(): string {
    return formatTime(START + this.nextId * 61_000 + Math.floor(this.random() * 1000));
  }

  protected override add(nodeType: string, attributes: Attributes, options: NodeOptions = {}): number {
    const id = super.add(nodeType, attributes, options);
    (nodeType.startsWith('process.') ? this.processes : this.data).push(id);
    return id;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private process(
    nodeType: string,
    processType: string,
    label: string,
    extra: Attributes = {},
    options: { computer?: number; files?: Record<string, string> } = {},
  ) {
    const failed = this.random() < 0.2;
    return this.add(nodeType, processAttributes(label, failed ? 'excepted' : 'finished', failed ? 1 : 0, extra), {
      ...options,
      processType,
      label: this.random() < 0.5 ? label : '',
    });
  }

  /** Emits every requested shape `count` times; returns the number of nodes written. */
  generate(): number {
    for (let i = 0; i < this.count; i++) {
      for (const shape of this.shapes) this[shape]();
    }
    return this.nextId - 1;
  }

  private structure(): number {
    const symbols = this.pick(ELEMENTS);
    const a = Math.round((3 + this.random() * 3) * 1000) / 1000;
    const slab = this.random() < 0.3;
    return this.add(
      'data.core.structure.StructureData.',
      structureAttributes(symbols, a, { height: slab ? 20 : a, periodicZ: !slab, siteY: a / 4 }),
      { label: symbols.join('') },
    );
  }

  structures(): void {
    this.structure();
  }

  dicts(): void {
    this.add('data.core.dict.Dict.', {
      ecutwfc: 30 + Math.floor(this.random() * 40),
      smearing: this.pick(['gaussian', 'cold', 'mv']),
      nested: { list: [1, 2.5, 'x', null, true], empty: {} },
      ünïcode: 'α β',
    });
    this.add('data.core.int.Int.', { value: Math.floor(this.random() * 100) });
    this.add('data.core.float.Float.', { value: Math.round(this.random() * 1e6) / 1e3 });
    this.add('data.core.str.Str.', { value: this.pick(['PBE', 'PBEsol', 'LDA']) });
    this.add('data.core.bool.Bool.', { value: this.random() < 0.5 });
    this.add('data.core.list.List.', { list: [1, 'two', 3.5] });
  }

  arrays(): void {
    const n = 2 + Math.floor(this.random() * 3);
    const ints = Array.from({ length: n * 3 }, () => Math.floor(this.random() * 10));
    const floats = Array.from({ length: n * 2 }, (_, i) => (i === 1 ? Number.NaN : this.random() * 4 - 2));
    this.add(
      'data.core.array.ArrayData.',
      { 'array|counts': [n, 3], 'array|values': [n, 2] },
      {
        files: {
          'counts.npy': this.file(npy('<i8', [n, 3], ints)),
          'values.npy': this.file(npy('<f8', [n, 2], floats)),
        },
      },
    );
    const x = Array.from({ length: n }, (_, i) => i * 0.5);
    this.add(
      'data.core.array.xy.XyData.',
      {
        'array|x_array': [n],
        'array|y_array_0': [n],
        x_name: 'time',
        x_units: 's',
        y_names: ['signal'],
        y_units: ['V'],
      },
      {
        files: {
          'x_array.npy': this.file(npy('<f8', [n], x)),
          'y_array_0.npy': this.file(
            npy(
              '<f8',
              [n],
              x.map((v) => v * v),
            ),
          ),
        },
      },
    );
    this.add('data.core.array.kpoints.KpointsData.', { mesh: [n, n, 1], offset: [0, 0, 0.5] });
  }

  bands(): void {
    const kpoints = [0, 0, 0, 0.25, 0, 0, 0.5, 0, 0, 0.5, 0.5, 0];
    const bands = Array.from({ length: 8 }, (_, i) => Math.round((i - 4 + this.random()) * 1000) / 1000);
    this.add(
      'data.core.array.bands.BandsData.',
      {
        'array|kpoints': [4, 3],
        'array|bands': [4, 2],
        cell: [
          [3, 0, 0],
          [0, 3, 0],
          [0, 0, 3],
        ],
        pbc1: true,
        pbc2: true,
        pbc3: true,
        labels: ['GAMMA', 'X'],
        label_numbers: [0, 2],
        units: 'eV',
      },
      {
        files: {
          'kpoints.npy': this.file(npy('<f8', [4, 3], kpoints)),
          'bands.npy': this.file(npy('<f8', [4, 2], bands)),
        },
      },
    );
  }

  calcjobs(): void {
    const structure = this.structure();
    const parameters = this.add('data.core.dict.Dict.', { CONTROL: { calculation: 'scf' } });
    const files = {
      'aiida.in': this.file(`&CONTROL\n  calculation = 'scf'\n/\n! job ${this.nextId}\n`),
      '_aiidasubmit.sh': this.file('#!/bin/bash\nsrun pw.x < aiida.in > aiida.out\n'),
      '.aiida/calcinfo.json': this.file('{"uuid": "x"}\n'),
      '.aiida/job_tmpl.json': this.file('{}\n'),
    };
    const calc = this.process(
      'process.calculation.calcjob.CalcJobNode.',
      this.pick(['aiida.calculations:quantumespresso.pw', 'aiida.calculations:core.arithmetic.add']),
      'PwCalculation',
      {
        state: this.pick(['parsing', 'retrieving', 'finished']),
        resources: { num_machines: 1 },
        parser_name: 'quantumespresso.pw',
      },
      { computer: 2, files },
    );
    this.sink.link(structure, calc, 'structure', 'input_calc');
    this.sink.link(parameters, calc, 'parameters', 'input_calc');
    const retrieved = this.add(
      'data.core.folder.FolderData.',
      {},
      { files: { 'aiida.out': this.file(`JOB DONE ${calc}\n`), '_scheduler-stdout.txt': this.file('') } },
    );
    const remote = this.add('data.core.remote.RemoteData.', { remote_path: `/scratch/${calc}` }, { computer: 2 });
    const output = this.add('data.core.dict.Dict.', { energy: -10 - this.random(), energy_units: 'eV' });
    this.sink.link(calc, retrieved, 'retrieved', 'create');
    this.sink.link(calc, remote, 'remote_folder', 'create');
    this.sink.link(calc, output, 'output_parameters', 'create');
  }

  workflows(): void {
    const x = this.add('data.core.int.Int.', { value: Math.floor(this.random() * 10) });
    const y = this.add('data.core.int.Int.', { value: Math.floor(this.random() * 10) });
    const outer = this.process(
      'process.workflow.workchain.WorkChainNode.',
      'aiida.workflows:core.arithmetic.multiply_add',
      'MultiplyAddWorkChain',
    );
    const inner = this.process(
      'process.workflow.workchain.WorkChainNode.',
      'my_plugin.workflows.Inner',
      'InnerWorkChain',
    );
    const fn = this.process(
      'process.calculation.calcfunction.CalcFunctionNode.',
      'aiida.workflows.arithmetic.add_multiply.add_multiply',
      'add_multiply',
    );
    const result = this.add('data.core.int.Int.', { value: Math.floor(this.random() * 100) });
    this.sink.link(x, outer, 'x', 'input_work');
    this.sink.link(y, outer, 'y', 'input_work');
    this.sink.link(x, inner, 'nested__x', 'input_work');
    this.sink.link(outer, inner, 'CALL', 'call_work');
    this.sink.link(inner, fn, 'CALL', 'call_calc');
    this.sink.link(x, fn, 'x', 'input_calc');
    this.sink.link(y, fn, 'y', 'input_calc');
    this.sink.link(fn, result, 'result', 'create');
    this.sink.link(inner, result, 'result', 'return');
    this.sink.link(outer, result, 'result', 'return');
  }

  logs(): void {
    const process =
      this.processes.length > 0
        ? this.pick(this.processes)
        : this.process(
            'process.workflow.workchain.WorkChainNode.',
            'aiida.workflows:core.arithmetic.multiply_add',
            'MultiplyAddWorkChain',
          );
    for (let i = 0; i < 3; i++)
      this.sink.log(process, this.time(), `[${process}|step_${i}]: message ${i}`, this.pick(LEVELS));
  }

  comments(): void {
    const node = this.data.length > 0 ? this.pick(this.data) : this.structure();
    this.sink.comment(node, this.time(), `Checked by hand (${node}) — ok`);
    this.sink.comment(node, this.time(), 'Second comment');
  }

  groups(): void {
    const node = this.data.length > 0 ? this.pick(this.data) : this.structure();
    this.sink.member(1 + Math.floor(this.random() * 3), node);
  }
}
