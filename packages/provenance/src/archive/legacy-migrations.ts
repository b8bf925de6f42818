/**
 * Archives older than 0.4 (0.1 … 0.3: `type` instead of `node_type`, untyped or `…link` links, Django
 * entity names) brought to the 0.4 layout with the aiida-core 2.x node, link and group vocabulary, from
 * where AiiDA's own chain (legacy-chain.ts) continues. These are idempotent normalisers, not a step-by-step
 * port of AiiDA 1.x's `v01_to_v02` … `v03_to_v04` (whose attribute renames, e.g. `_process_label`, are not
 * applied).
 */
import type { Json, LegacyExport } from './legacy-chain.js';

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

const ENTITY_NAMES = ['Node', 'Link', 'Group', 'Computer', 'User', 'Attribute', 'Comment', 'Log'];

/** Renames Django model keys (`aiida.backends.djsite.db.models.DbNode`, `aiida.djsite…`) to `Node`, … */
function renameEntities(container: Json): void {
  for (const key of Object.keys(container)) {
    const match = /^aiida\.(?:backends\.)?djsite\.db\.models\.Db(\w+)$/.exec(key);
    if (!match?.[1] || !ENTITY_NAMES.includes(match[1])) continue;
    container[match[1]] = container[key];
    delete container[key];
  }
}

/** 0.1 … 0.3 → the 0.4 layout (see the file header). */
export function toVersion04(e: LegacyExport): void {
  const exportData = (e.data.export_data as Json | undefined) ?? {};
  e.data.export_data = exportData;
  renameEntities(exportData);
  for (const dictionary of ['unique_identifiers', 'all_fields_info'])
    renameEntities((e.metadata[dictionary] as Json) ?? {});
  const nodeTypes = new Map<string, string>();
  for (const node of Object.values((exportData.Node as Record<string, Json>) ?? {})) {
    const { nodeType, processType } = migrateNodeType(
      String(node.node_type ?? node.type ?? ''),
      (node.process_type as string) ?? null,
    );
    node.node_type = nodeType;
    node.process_type = processType ?? '';
    delete node.type;
    nodeTypes.set(String(node.uuid), nodeType);
  }
  for (const link of (e.data.links_uuid as Json[] | undefined) ?? []) {
    link.type = migrateLinkType(
      link.type as string,
      nodeTypes.get(String(link.input)) ?? '',
      nodeTypes.get(String(link.output)) ?? '',
    );
  }
  for (const group of Object.values((exportData.Group as Record<string, Json>) ?? {})) {
    group.label = group.label ?? group.name;
    group.type_string = migrateGroupType((group.type_string ?? group.type) as string);
    delete group.name;
    delete group.type;
  }
  e.metadata.export_version = '0.4';
}
