/**
 * The renames AiiDA's archive migrations (0.1 … 0.13 → main) apply to entity fields, written as
 * idempotent normalisers: whatever the starting version, the result is the aiida-core 2.x vocabulary.
 */

const CORE_DATA = new Set([
  'array',
  'base',
  'bool',
  'cif',
  'code',
  'dict',
  'enum',
  'float',
  'folder',
  'int',
  'jsonable',
  'list',
  'numeric',
  'orbital',
  'remote',
  'singlefile',
  'str',
  'structure',
  'upf',
]);

const RENAMED_NODE_TYPES: Record<string, string> = {
  'code.Code.': 'data.core.code.Code.',
  'data.parameter.ParameterData.': 'data.core.dict.Dict.',
  'data.base.Int.': 'data.core.int.Int.',
  'data.base.Float.': 'data.core.float.Float.',
  'data.base.Str.': 'data.core.str.Str.',
  'data.base.Bool.': 'data.core.bool.Bool.',
  'data.base.List.': 'data.core.list.List.',
  'calculation.Calculation.': 'process.calculation.CalculationNode.',
  'calculation.job.JobCalculation.': 'process.calculation.calcjob.CalcJobNode.',
  'calculation.inline.InlineCalculation.': 'process.calculation.calcfunction.CalcFunctionNode.',
  'calculation.function.FunctionCalculation.': 'process.workflow.workfunction.WorkFunctionNode.',
  'calculation.work.WorkCalculation.': 'process.workflow.workchain.WorkChainNode.',
};

/** Node type (and process type) in the 2.x vocabulary. */
export function migrateNodeType(
  nodeType: string,
  processType: string | null,
): { nodeType: string; processType: string | null } {
  const renamed = RENAMED_NODE_TYPES[nodeType];
  if (renamed) return { nodeType: renamed, processType: processType || null };
  if (nodeType.startsWith('calculation.job.')) {
    const plugin = nodeType.slice('calculation.job.'.length).split('.').slice(0, -2).join('.');
    return {
      nodeType: 'process.calculation.calcjob.CalcJobNode.',
      processType: processType || (plugin ? `aiida.calculations:${plugin}` : null),
    };
  }
  const parts = nodeType.split('.');
  if (parts[0] === 'data' && parts[1] !== undefined && CORE_DATA.has(parts[1])) {
    return { nodeType: ['data', 'core', ...parts.slice(1)].join('.'), processType: processType || null };
  }
  return { nodeType, processType: processType || null };
}

const isCalculation = (nodeType: string) => nodeType.startsWith('process.calculation.');
const isWorkflow = (nodeType: string) => nodeType.startsWith('process.workflow.');

/** Link type in the 2.x vocabulary, inferred from the linked node types where old archives lack one. */
export function migrateLinkType(type: string | null | undefined, inputType: string, outputType: string): string {
  const base = (type ?? '').replace(/link$/, '');
  switch (base) {
    case 'input':
      return isWorkflow(outputType) ? 'input_work' : 'input_calc';
    case 'call':
      return isWorkflow(outputType) ? 'call_work' : 'call_calc';
    case '':
      if (inputType.startsWith('process.')) {
        if (outputType.startsWith('process.')) return isWorkflow(outputType) ? 'call_work' : 'call_calc';
        return isCalculation(inputType) ? 'create' : 'return';
      }
      return isWorkflow(outputType) ? 'input_work' : 'input_calc';
    default:
      return base;
  }
}

const CORE_PLUGINS = new Set(['direct', 'lsf', 'pbspro', 'sge', 'slurm', 'torque', 'local', 'ssh', 'ssh_async']);

/** `slurm` → `core.slurm` (scheduler and transport entry points moved under `core.` in 2.0). */
export function migratePluginName(name: string | null | undefined): string {
  if (!name) return '';
  return CORE_PLUGINS.has(name) ? `core.${name}` : name;
}

const GROUP_TYPES: Record<string, string> = {
  '': 'core',
  user: 'core',
  'data.upf': 'core.upf',
  'data.upf.family': 'core.upf',
  import: 'core.import',
  'auto.import': 'core.import',
  'auto.run': 'core.auto',
};

export function migrateGroupType(type: string | null | undefined): string {
  return GROUP_TYPES[type ?? ''] ?? type ?? 'core';
}

/** `2015-06-04T10:58:44.000000` (archive JSON) → the naive-UTC text AiiDA's SQLite schema stores. */
export function migrateTime(value: unknown): string {
  const text = String(value ?? '1970-01-01T00:00:00');
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(date.getTime())) return '1970-01-01 00:00:00.000000';
  const micro = /\.(\d{1,6})/.exec(text)?.[1]?.padEnd(6, '0') ?? '000000';
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}.${micro}`;
}
