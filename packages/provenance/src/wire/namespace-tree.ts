import { entryPointOf } from './download-formats.js';
import { fullTypeOf } from './full-type.js';

/** One distinct (node_type, process_type) pair of the database and, when counting, its number of nodes. */
export interface TypeCount {
  nodeType: string;
  processType: string;
  count?: number;
}

export interface NamespaceDescription {
  namespace: string;
  path: string;
  label: string;
  full_type: string | null;
  subspaces: NamespaceDescription[];
  counter?: number;
}

const PATH_LABELS: Record<string, string> = {
  'node.data': 'Data',
  'node.process': 'Process',
  'node.process.calculation': 'Calculation',
  'node.process.calculation.calcjob': 'Calculation job',
  'node.process.calculation.calcfunction': 'Calculation function',
  'node.process.workflow': 'Workflow',
  'node.process.workflow.workchain': 'Work chain',
  'node.process.workflow.workfunction': 'Work function',
};

const NO_ENTRY_POINT = '~no-entry-point~';

const PROCESS_TEMPLATES: [prefix: string, template: string][] = [
  ['process.calculation.calcjob.', 'process.calculation.calcjob.CalcJobNode.|{group}:{rest}.%'],
  ['process.calculation.calcfunction.', 'process.calculation.calcfunction.CalcFunctionNode.|{group}:{rest}.%'],
  ['process.workflow.workfunction.', 'process.workflow.workfunction.WorkFunctionNode.|{group}:{rest}.%'],
  ['process.workflow.workchain.', 'process.workflow.workchain.WorkChainNode.|{group}:{rest}.%'],
];

function inferFullType(path: string): string {
  const p = path.startsWith('node.') ? path.slice('node.'.length) : path;
  for (const [prefix, template] of PROCESS_TEMPLATES) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    const group = prefix.includes('.workflow.') ? 'aiida.workflows' : 'aiida.calculations';
    if (rest.startsWith(`${NO_ENTRY_POINT}.`)) {
      return template.replace('{group}:{rest}', rest.slice(NO_ENTRY_POINT.length + 1));
    }
    return template.replace('{group}', group).replace('{rest}', rest);
  }
  return `${p}.%|${p === 'process' || p.startsWith('process.') ? '%' : ''}`;
}

class Namespace {
  readonly subspaces = new Map<string, Namespace>();
  readonly label: string;
  readonly fullType: string | null;

  constructor(
    readonly name: string,
    readonly path: string,
    readonly isLeaf: boolean,
    leaf?: { label: string; fullType: string; counter?: number },
    readonly counter?: number,
  ) {
    this.label = leaf?.label ?? PATH_LABELS[path] ?? path.slice(path.lastIndexOf('.') + 1);
    this.fullType = leaf?.fullType ?? inferFullType(path);
    if (name === NO_ENTRY_POINT) {
      this.label = 'Unregistered';
      this.fullType = null;
    }
  }

  create(dotted: string[], leaf: { label: string; fullType: string; counter?: number }): void {
    const [name, ...rest] = dotted;
    if (name === undefined) return;
    const path = `${this.path}.${name}`;
    let child = this.subspaces.get(name);
    if (!child) {
      child = rest.length ? new Namespace(name, path, false) : new Namespace(name, path, true, leaf, leaf.counter);
      this.subspaces.set(name, child);
      if (!rest.length) return;
    } else if (!rest.length) {
      child.create([name], leaf);
      return;
    }
    if (child.isLeaf) {
      const parent = new Namespace(name, path, false);
      parent.subspaces.set(name, child);
      this.subspaces.set(name, parent);
      child = parent;
    }
    child.create(rest, leaf);
  }

  describe(withCounter: boolean): NamespaceDescription {
    const subspaces = [...this.subspaces.values()].map((s) => s.describe(withCounter));
    const description: NamespaceDescription = {
      namespace: this.name,
      path: this.path,
      label: this.label,
      full_type: this.fullType,
      subspaces,
    };
    if (withCounter) {
      description.counter = this.isLeaf ? (this.counter ?? 0) : subspaces.reduce((s, d) => s + (d.counter ?? 0), 0);
    }
    return description;
  }
}

function leafOf(type: TypeCount): { namespace: string; label: string } | undefined {
  const parts = rsplit(type.nodeType, 2);
  if (type.processType) {
    const entryPoint = entryPointOf(type.processType);
    if (entryPoint) {
      const [, name] = entryPoint;
      return { label: name.slice(name.lastIndexOf('.') + 1), namespace: [...parts.slice(0, -2), name].join('.') };
    }
    return {
      label: type.processType.slice(type.processType.lastIndexOf('.') + 1),
      namespace: [...parts.slice(0, -2), NO_ENTRY_POINT, type.processType].join('.'),
    };
  }
  if (parts.length < 3) return undefined;
  return { label: parts[parts.length - 2] ?? '', namespace: parts.slice(0, -2).join('.') };
}

/** Python's `str.rsplit('.', max)`. */
function rsplit(text: string, max: number): string[] {
  const parts = text.split('.');
  if (parts.length <= max + 1) return parts;
  return [parts.slice(0, parts.length - max).join('.'), ...parts.slice(parts.length - max)];
}

/** `identifiers.get_node_namespace`: the tree of node types served by `/nodes/full_types(_count)`. */
export function buildNamespaceTree(types: TypeCount[], withCounter: boolean): NamespaceDescription {
  const entries = types
    .map((type) => ({ type, leaf: leafOf(type) }))
    .filter((e): e is { type: TypeCount; leaf: { namespace: string; label: string } } => e.leaf !== undefined)
    .sort((a, b) => (a.leaf.namespace < b.leaf.namespace ? -1 : a.leaf.namespace > b.leaf.namespace ? 1 : 0));
  const root = new Namespace('node', 'node', false);
  for (const { type, leaf } of entries) {
    root.create(leaf.namespace.split('.'), {
      label: leaf.label,
      fullType: fullTypeOf(type.nodeType, type.processType),
      ...(type.count === undefined ? {} : { counter: type.count }),
    });
  }
  return root.describe(withCounter);
}
