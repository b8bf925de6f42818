import { loadNodeClass } from './download-formats.js';
import { dimensionality, hillFormula, structureOf } from './structure.js';

type Json = Record<string, unknown>;

/** `data.core.structure.StructureData.` → `StructureData` (the ORM class the translators dispatch on). */
export function classNameOf(nodeType: string): string {
  const parts = nodeType.split('.');
  return parts[parts.length - 2] ?? '';
}

export const isProcess = (nodeType: string) => nodeType.startsWith('process.');
export const CALCJOB_NODE_TYPE = 'process.calculation.calcjob.CalcJobNode.';

function kpointsMesh(attributes: Json): { mesh: number[]; offset: number[] } | undefined {
  const mesh = attributes.mesh as number[] | undefined;
  if (!Array.isArray(mesh) || mesh.length !== 3) return undefined;
  return { mesh, offset: (attributes.offset as number[] | undefined) ?? [0, 0, 0] };
}

/** `KpointsData.get_kpoints_mesh(print_list=True)`: the mesh points, z fastest. */
export function meshPoints(mesh: number[], offset: number[]): number[][] {
  const [a = 1, b = 1, c = 1] = mesh;
  const [oa = 0, ob = 0, oc = 0] = offset;
  const points: number[][] = [];
  for (let i = 0; i < a; i++)
    for (let j = 0; j < b; j++) for (let k = 0; k < c; k++) points.push([(i + oa) / a, (j + ob) / b, (k + oc) / c]);
  return points;
}

/** `contents/derived_properties` per class; classes without a translator get `{}` (the reference answers 500). */
export function derivedProperties(nodeType: string, attributes: Json): Json {
  switch (classNameOf(nodeType)) {
    case 'StructureData': {
      const structure = structureOf(attributes);
      return { dimensionality: dimensionality(structure), formula: hillFormula(structure) };
    }
    case 'KpointsData': {
      const mesh = kpointsMesh(attributes);
      const derived: Json = { has_cell: 'cell' in attributes, has_labels: 'labels' in attributes, has_mesh: !!mesh };
      if (mesh) Object.assign(derived, mesh, { explicit_kpoints_rel: meshPoints(mesh.mesh, mesh.offset) });
      return derived;
    }
    default:
      return {};
  }
}

const CALC_JOB_STATES = new Set([
  'uploading',
  'submitting',
  'withscheduler',
  'stashing',
  'unstashing',
  'retrieving',
  'parsing',
]);

/**
 * `node.get_description()` as shown in `links/tree` (not the description column), by the class the node
 * loads as and what it inherits: BandsData is a KpointsData, InstalledCode, ContainerizedCode and PortableCode
 * are Codes (with their own `full_label`), a CalcJobNode shows a valid `CalcJobState` only.
 */
export function treeDescription(nodeType: string, attributes: Json, label: string, computer?: string): string {
  switch (loadNodeClass(nodeType)) {
    case 'StructureData':
      return hillFormula(structureOf(attributes));
    case 'KpointsData':
    case 'BandsData': {
      const mesh = kpointsMesh(attributes);
      if (mesh) {
        const [o0 = 0, o1 = 0, o2 = 0] = mesh.offset;
        return `Kpoints mesh: ${mesh.mesh.join('x')} (+${o0.toFixed(1)},${o1.toFixed(1)},${o2.toFixed(1)})`;
      }
      const shape = attributes['array|kpoints'] as number[] | undefined;
      return `(Path of ${shape?.[0] ?? 0} kpts)`;
    }
    case 'CalcJobNode':
      return typeof attributes.state === 'string' && CALC_JOB_STATES.has(attributes.state) ? attributes.state : '';
    case 'Code':
      return `${label}@${computer ?? 'repository'}`;
    case 'InstalledCode':
    case 'ContainerizedCode':
      return `${label}@${computer}`;
    case 'PortableCode':
      return label;
    default:
      return '';
  }
}
