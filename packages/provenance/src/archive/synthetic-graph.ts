import { formatTime, GraphBuilder, type GraphSink, processAttributes, structureAttributes } from './graph-builder.js';

/**
 * A deterministic, realistic AiiDA provenance graph for scale tests, modelled on a Quantum ESPRESSO
 * relax campaign: each unit is a relax WorkChain calling a base WorkChain calling a pw CalcJob (with
 * inputs, outputs and files) plus an add-multiply calcfunction; structures are shared across units.
 */

/** Bumped whenever the generated graph changes, so archives cached by benchmarks are made again. */
export const SYNTHETIC_GRAPH_VERSION = 1;

export const SYNTHETIC_GROUPS = [
  { id: 1, label: 'structures/initial', type_string: 'core' },
  { id: 2, label: 'relax/all', type_string: 'core' },
  { id: 3, label: 'relax/failed', type_string: 'core' },
];
export const SYNTHETIC_COMPUTERS = [
  { id: 1, label: 'localhost', hostname: 'localhost', scheduler_type: 'core.direct', transport_type: 'core.local' },
  { id: 2, label: 'daint', hostname: 'daint.cscs.ch', scheduler_type: 'core.slurm', transport_type: 'core.ssh' },
];
export const SYNTHETIC_USERS = [
  { id: 1, email: 'aiida@localhost', first_name: 'AiiDA', last_name: 'Daemon' },
  { id: 2, email: 'bob@example.com', first_name: 'Bob', last_name: 'Builder' },
];

const START = Date.UTC(2024, 0, 1);
const SPAN_MS = 2 * 365 * 86_400_000;
const ELEMENTS = [
  ['Si'],
  ['Na', 'Cl'],
  ['Mg', 'O'],
  ['Ga', 'As'],
  ['Al'],
  ['Fe'],
  ['Ba', 'Ti', 'O', 'O', 'O'],
  ['Sr', 'Ti', 'O', 'O', 'O'],
];

export class SyntheticGraph extends GraphBuilder {
  private readonly sharedStructures: number[] = [];
  private codeId = 0;

  constructor(
    sink: GraphSink,
    private readonly targetNodes: number,
    seed = 42,
  ) {
    super(sink, seed, { uuidVariant: 'a', hashInput: (_nodeType, id) => String(id) });
  }

  protected time(): string {
    return formatTime(START + Math.floor((this.nextId / this.targetNodes) * SPAN_MS));
  }

  private structure(user: number): number {
    const symbols = ELEMENTS[Math.floor(this.random() * ELEMENTS.length)] ?? ['Si'];
    const a = 3 + this.random() * 3;
    return this.add('data.core.structure.StructureData.', structureAttributes(symbols, a), { user });
  }

  private process(
    nodeType: string,
    processType: string,
    label: string,
    state: [string, number],
    extra = {},
    computer?: number,
    user = 1,
  ) {
    return this.add(nodeType, processAttributes(label, state[0], state[1], extra), { processType, computer, user });
  }

  /** Emits units until about `targetNodes` nodes exist; returns the number of nodes written. */
  generate(): number {
    this.codeId = this.add(
      'data.core.code.installed.InstalledCode.',
      { filepath_executable: '/usr/bin/pw.x' },
      { label: 'pw', computer: 2 },
    );
    for (let i = 0; i < 64 && this.nextId <= this.targetNodes; i++) {
      const id = this.structure(1);
      this.sharedStructures.push(id);
      this.sink.member(1, id);
      if (i % 8 === 0) this.sink.comment(id, this.time(), `Reference structure ${i}`);
    }
    let recent: number[] = [];
    while (this.nextId <= this.targetNodes) recent = this.unit(recent);
    return this.nextId - 1;
  }

  private unit(recent: number[]): number[] {
    const user = this.random() < 0.2 ? 2 : 1;
    const reuse = this.random() < 0.3 && recent.length > 0;
    const structure = reuse
      ? (recent[Math.floor(this.random() * recent.length)] as number)
      : (this.sharedStructures[Math.floor(this.random() * this.sharedStructures.length)] as number);
    const ecut = 30 + Math.floor(this.random() * 30);
    const parameters = this.add(
      'data.core.dict.Dict.',
      {
        CONTROL: { calculation: 'relax' },
        SYSTEM: { ecutwfc: ecut, ecutrho: ecut * 8 },
        ELECTRONS: { conv_thr: 1e-8 },
      },
      { user },
    );
    const kpoints = this.add('data.core.array.kpoints.KpointsData.', { mesh: [4, 4, 4], offset: [0, 0, 0] }, { user });
    const outcome = this.random();
    const state: [string, number] =
      outcome < 0.9 ? ['finished', 0] : outcome < 0.95 ? ['finished', 401] : ['excepted', 1];
    const relax = this.process(
      'process.workflow.workchain.WorkChainNode.',
      'aiida.workflows:quantumespresso.pw.relax',
      'PwRelaxWorkChain',
      state,
      {},
      undefined,
      user,
    );
    const base = this.process(
      'process.workflow.workchain.WorkChainNode.',
      'aiida.workflows:quantumespresso.pw.base',
      'PwBaseWorkChain',
      ['finished', 0],
      {},
      undefined,
      user,
    );
    const input = this.file(`&CONTROL\n  calculation = 'relax'\n/\n&SYSTEM\n  ecutwfc = ${ecut}\n/\n`);
    const pw = this.add(
      'process.calculation.calcjob.CalcJobNode.',
      {
        process_label: 'PwCalculation',
        process_state: 'finished',
        exit_status: 0,
        sealed: true,
        resources: { num_machines: 1 },
        parser_name: 'quantumespresso.pw',
        state: 'parsing',
      },
      {
        processType: 'aiida.calculations:quantumespresso.pw',
        computer: 2,
        user,
        files: {
          'aiida.in': input,
          '_aiidasubmit.sh': this.file('#!/bin/bash\nsrun pw.x < aiida.in > aiida.out\n'),
        },
      },
    );
    for (const [node, label] of [
      [structure, 'structure'],
      [parameters, 'parameters'],
      [kpoints, 'kpoints'],
    ] as const) {
      this.sink.link(node, relax, label, 'input_work');
      this.sink.link(node, base, `pw__${label}`, 'input_work');
      this.sink.link(node, pw, label, 'input_calc');
    }
    this.sink.link(this.codeId, pw, 'code', 'input_calc');
    this.sink.link(relax, base, 'CALL', 'call_work');
    this.sink.link(base, pw, 'CALL', 'call_calc');
    const energy = -100 - this.random() * 50;
    const output = this.add(
      'data.core.dict.Dict.',
      { energy, energy_units: 'eV', wall_time_seconds: Math.floor(this.random() * 3600) },
      { user },
    );
    const remote = this.add(
      'data.core.remote.RemoteData.',
      { remote_path: `/scratch/aiida/${pw}` },
      { computer: 2, user },
    );
    const retrieved = this.add(
      'data.core.folder.FolderData.',
      {},
      {
        user,
        files: {
          'aiida.out': this.file(`Program PWSCF\n!    total energy = ${Math.round(energy)} Ry\nJOB DONE.\n`),
        },
      },
    );
    const trajectory = this.add('data.core.array.ArrayData.', { 'array|forces': [2, 3] }, { user });
    this.sink.link(pw, output, 'output_parameters', 'create');
    this.sink.link(pw, remote, 'remote_folder', 'create');
    this.sink.link(pw, retrieved, 'retrieved', 'create');
    this.sink.link(pw, trajectory, 'output_trajectory', 'create');
    this.sink.link(base, output, 'output_parameters', 'return');
    this.sink.link(relax, output, 'output_parameters', 'return');
    const produced = [...recent.slice(-20)];
    if (this.random() < 0.5) {
      const relaxed = this.structure(user);
      this.sink.link(pw, relaxed, 'output_structure', 'create');
      this.sink.link(relax, relaxed, 'output_structure', 'return');
      produced.push(relaxed);
    }
    const x = this.add('data.core.int.Int.', { value: Math.floor(this.random() * 10) }, { user });
    const y = this.add('data.core.int.Int.', { value: Math.floor(this.random() * 10) }, { user });
    const fn = this.process(
      'process.calculation.calcfunction.CalcFunctionNode.',
      'aiida.workflows.arithmetic.add_multiply.add_multiply',
      'add_multiply',
      ['finished', 0],
      {},
      undefined,
      user,
    );
    this.sink.link(x, fn, 'x', 'input_calc');
    this.sink.link(y, fn, 'y', 'input_calc');
    this.sink.link(relax, fn, 'CALL', 'call_calc');
    const result = this.add('data.core.float.Float.', { value: this.random() * 100 }, { user });
    this.sink.link(fn, result, 'result', 'create');
    this.sink.link(relax, result, 'result', 'return');
    this.sink.log(relax, this.time(), `[${relax}|PwRelaxWorkChain|run_relax]: launching PwBaseWorkChain<${base}>`);
    this.sink.member(2, relax);
    if (state[1] !== 0) this.sink.member(3, relax);
    return produced;
  }
}
