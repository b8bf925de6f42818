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

/** `node.get_description()` as shown in `links/tree` (not the description column). */
export function treeDescription(nodeType: string, attributes: Json, label: string, computer?: string): string {
  switch (classNameOf(nodeType)) {
    case 'StructureData':
      return hillFormula(structureOf(attributes));
    case 'KpointsData': {
      const mesh = kpointsMesh(attributes);
      if (mesh) {
        const [o0 = 0, o1 = 0, o2 = 0] = mesh.offset;
        return `Kpoints mesh: ${mesh.mesh.join('x')} (+${o0.toFixed(1)},${o1.toFixed(1)},${o2.toFixed(1)})`;
      }
      const shape = attributes['array|kpoints'] as number[] | undefined;
      return `(Path of ${shape?.[0] ?? 0} kpts)`;
    }
    case 'CalcJobNode':
      return typeof attributes.state === 'string' ? attributes.state : '';
    case 'Code':
      return computer ? `${label}@${computer}` : label;
    default:
      return '';
  }
}

/** `get_all_download_formats()` of the reference (aiida-core 2.x entry points). */
export const DOWNLOAD_FORMATS: Record<string, string[]> = {
  'data.core.array.ArrayData.|': ['json'],
  'data.core.array.bands.BandsData.|': [
    'agr',
    'agr_batch',
    'dat_blocks',
    'dat_multicolumn',
    'gnuplot',
    'json',
    'mpl_pdf',
    'mpl_png',
    'mpl_singlefile',
    'mpl_withjson',
  ],
  'data.core.array.kpoints.KpointsData.|': ['json'],
  'data.core.array.projection.ProjectionData.|': ['json'],
  'data.core.array.trajectory.TrajectoryData.|': ['cif', 'json', 'xsf'],
  'data.core.array.xy.XyData.|': ['json'],
  'data.core.cif.CifData.|': ['cif'],
  'data.core.code.Code.|': ['yaml', 'yml'],
  'data.core.code.abstract.AbstractCode.|': ['yaml', 'yml'],
  'data.core.code.containerized.ContainerizedCode.|': ['yaml', 'yml'],
  'data.core.code.installed.InstalledCode.|': ['yaml', 'yml'],
  'data.core.code.portable.PortableCode.|': ['yaml', 'yml'],
  'data.core.structure.StructureData.|': ['chemdoodle', 'cif', 'xsf', 'xyz'],
  'data.core.upf.UpfData.|': ['json', 'upf'],
};
