import { inputError, notAvailable } from './errors.js';
import { pyStr, pyTruthy } from './python-values.js';
import type { FieldValue } from './query-string.js';

/**
 * Which export formats the reference finds for a full type (`NodeTranslator.get_all_download_formats`,
 * `identifiers.load_entry_point_from_full_type`) and for a stored node (`orm.utils.node.load_node_class`):
 * both load a class through aiida-core 2.9's entry points and ask it for `get_export_formats()`.
 */

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

/** `aiida.data` entry points (aiida-core's pyproject.toml) and their classes. */
const DATA_CLASSES: Record<string, string> = {
  'core.array': 'ArrayData',
  'core.array.bands': 'BandsData',
  'core.array.kpoints': 'KpointsData',
  'core.array.projection': 'ProjectionData',
  'core.array.trajectory': 'TrajectoryData',
  'core.array.xy': 'XyData',
  'core.base': 'BaseType',
  'core.bool': 'Bool',
  'core.cif': 'CifData',
  'core.code': 'Code',
  'core.code.abstract': 'AbstractCode',
  'core.code.containerized': 'ContainerizedCode',
  'core.code.installed': 'InstalledCode',
  'core.code.portable': 'PortableCode',
  'core.dict': 'Dict',
  'core.enum': 'EnumData',
  'core.float': 'Float',
  'core.folder': 'FolderData',
  'core.int': 'Int',
  'core.jsonable': 'JsonableData',
  'core.list': 'List',
  'core.numeric': 'NumericType',
  'core.orbital': 'OrbitalData',
  'core.remote': 'RemoteData',
  'core.remote.stash': 'RemoteStashData',
  'core.remote.stash.compress': 'RemoteStashCompressedData',
  'core.remote.stash.custom': 'RemoteStashCustomData',
  'core.remote.stash.folder': 'RemoteStashFolderData',
  'core.singlefile': 'SinglefileData',
  'core.str': 'Str',
  'core.structure': 'StructureData',
  'core.upf': 'UpfData',
};

/** The other entry points aiida-core registers, per group: loadable, but not `Data` classes (no formats). */
const OTHER_ENTRY_POINTS: Record<string, readonly string[]> = {
  'aiida.calculations': ['core.arithmetic.add', 'core.stash', 'core.templatereplacer', 'core.transfer', 'core.unstash'],
  'aiida.calculations.importers': ['core.arithmetic.add'],
  'aiida.calculations.monitors': ['core.always_kill'],
  'aiida.cmdline.computer.configure': ['core.local', 'core.ssh'],
  'aiida.cmdline.data': [
    'core.array',
    'core.bands',
    'core.cif',
    'core.dict',
    'core.remote',
    'core.singlefile',
    'core.structure',
    'core.trajectory',
    'core.upf',
  ],
  'aiida.cmdline.data.structure.import': [],
  'aiida.groups': ['core', 'core.auto', 'core.import', 'core.upf'],
  'aiida.node': [
    'process',
    'process.calculation',
    'process.calculation.calcfunction',
    'process.calculation.calcjob',
    'process.workflow',
    'process.workflow.workchain',
    'process.workflow.workfunction',
  ],
  'aiida.orm': [
    'core.auth_info',
    'core.comment',
    'core.computer',
    'core.entity',
    'core.group',
    'core.log',
    'core.node',
    'core.user',
  ],
  'aiida.parsers': ['core.arithmetic.add', 'core.templatereplacer'],
  'aiida.schedulers': ['core.direct', 'core.lsf', 'core.pbspro', 'core.sge', 'core.slurm', 'core.torque'],
  'aiida.storage': ['core.psql_dos', 'core.sqlite_dos', 'core.sqlite_temp', 'core.sqlite_zip'],
  'aiida.transports': ['core.local', 'core.ssh', 'core.ssh_async'],
  'aiida.tools.calculations': [],
  'aiida.tools.data.orbitals': ['core.orbital', 'core.realhydrogen'],
  'aiida.tools.dbexporters': [],
  'aiida.tools.workflows': [],
  'aiida.tools.dbimporters': [
    'core.cod',
    'core.icsd',
    'core.materialsproject',
    'core.mpds',
    'core.mpod',
    'core.nninc',
    'core.oqmd',
    'core.pcod',
    'core.tcod',
  ],
  'aiida.workflows': ['core.arithmetic.add_multiply', 'core.arithmetic.multiply_add'],
};

/** `Data` itself, under the names `aiida.node` and `aiida.orm` give it: formats `[]`. */
const BASE_DATA: Record<string, string> = { 'aiida.node': 'data', 'aiida.orm': 'core.data' };

/** `DEPRECATED_ENTRY_POINTS_MAPPING`: pre-2.0 names that `get_entry_point` prefixes with `core.`. */
const DEPRECATED: Record<string, readonly string[]> = {
  'aiida.calculations': ['arithmetic.add', 'templatereplacer'],
  'aiida.data': [
    'array',
    'array.bands',
    'array.kpoints',
    'array.projection',
    'array.trajectory',
    'array.xy',
    'base',
    'bool',
    'cif',
    'code',
    'dict',
    'float',
    'folder',
    'int',
    'list',
    'numeric',
    'orbital',
    'remote',
    'remote.stash',
    'remote.stash.folder',
    'singlefile',
    'str',
    'structure',
    'upf',
  ],
  'aiida.tools.dbimporters': ['cod', 'icsd', 'materialsproject', 'mpds', 'mpod', 'nninc', 'oqmd', 'pcod', 'tcod'],
  'aiida.tools.data.orbitals': ['orbital', 'realhydrogen'],
  'aiida.parsers': ['arithmetic.add', 'templatereplacer.doubler'],
  'aiida.schedulers': ['direct', 'lsf', 'pbspro', 'sge', 'slurm', 'torque'],
  'aiida.transports': ['local', 'ssh'],
  'aiida.workflows': ['arithmetic.multiply_add', 'arithmetic.add_multiply'],
};

/** What loading an entry point gives: a `Data` class with its formats, another class, or nothing. */
type Loaded = { formats: string[]; fullType: string } | 'other' | 'missing';

const KNOWN_GROUPS = new Set([...Object.keys(OTHER_ENTRY_POINTS), 'aiida.data']);

function dataClass(name: string): Loaded {
  const className = DATA_CLASSES[name];
  if (!className) return 'missing';
  const fullType = `data.${name}.${className}.|`;
  return { formats: DOWNLOAD_FORMATS[fullType] ?? [], fullType };
}

/** `load_entry_point(group, name)`, after `convert_potentially_deprecated_entry_point`. */
function loadEntryPoint(group: string, given: string): Loaded {
  const name = DEPRECATED[group]?.includes(given) ? `core.${given}` : given;
  if (group === 'aiida.data') return dataClass(name);
  if (BASE_DATA[group] === name) return { formats: [], fullType: 'data.Data.|' };
  return OTHER_ENTRY_POINTS[group]?.includes(name) ? 'other' : 'missing';
}

/** `is_valid_entry_point_string`: exactly one `:` and a group of `ENTRY_POINT_GROUP_TO_MODULE_PATH_MAP`. */
export function entryPointOf(text: string): [group: string, name: string] | undefined {
  const parts = text.split(':');
  if (parts.length !== 2 || !KNOWN_GROUPS.has(parts[0] as string)) return undefined;
  return parts as [string, string];
}

const NOT_AVAILABLE = 'The download formats for this node type are not available.';

/**
 * `/nodes/download_formats?full_type=…`: a falsy value lists every data class; a non-string or a full type
 * without exactly one `|` is invalid (404); the process part, when an entry point string, names the class,
 * else a `data.` node type does (through its entry point name); an unloadable class is 501, a class that is
 * no `Data` gives `{}`.
 */
export function downloadFormatsFor(fullType: FieldValue | undefined): Record<string, string[]> {
  if (fullType === undefined || !pyTruthy(fullType)) return DOWNLOAD_FORMATS;
  if (typeof fullType !== 'string' || fullType.split('|').length !== 2) {
    throw inputError(`The full type ${pyStr(fullType)} is invalid.`);
  }
  const [nodeType = '', processType = ''] = fullType.split('|');
  const entryPoint = entryPointOf(processType);
  let loaded: Loaded;
  if (entryPoint) loaded = loadEntryPoint(...entryPoint);
  else if (nodeType.startsWith('data.')) loaded = loadEntryPoint('aiida.data', rsplit2(nodeType.slice('data.'.length)));
  else loaded = 'missing';
  if (loaded === 'missing') throw notAvailable(NOT_AVAILABLE);
  return loaded === 'other' ? {} : { [fullType]: loaded.formats };
}

/** `aiida.node` entry points: the process node classes. */
const PROCESS_CLASSES: Record<string, string> = {
  process: 'ProcessNode',
  'process.calculation': 'CalculationNode',
  'process.calculation.calcfunction': 'CalcFunctionNode',
  'process.calculation.calcjob': 'CalcJobNode',
  'process.workflow': 'WorkflowNode',
  'process.workflow.workchain': 'WorkChainNode',
  'process.workflow.workfunction': 'WorkFunctionNode',
};

const PROCESS_OR_NODE = new Set(['Node', ...Object.values(PROCESS_CLASSES)]);

/**
 * `orm.utils.node.load_node_class`: the class name a stored node loads as. Data types go through their entry
 * point (deprecated names included) and fall back on `Data`, process types on `ProcessNode`, anything else
 * on `Data`; `''` is the base `Node`.
 */
export function loadNodeClass(nodeType: string): string {
  if (nodeType === '') return 'Node';
  if (nodeType === 'data.Data.' || !nodeType.endsWith('.')) return 'Data';
  const basePath = rsplit2(nodeType).replace(/^node\./, '');
  if (basePath.startsWith('data.')) {
    const name = basePath.slice('data.'.length);
    return DATA_CLASSES[DEPRECATED['aiida.data']?.includes(name) ? `core.${name}` : name] ?? 'Data';
  }
  if (basePath.startsWith('process')) return PROCESS_CLASSES[basePath] ?? 'ProcessNode';
  return 'Data';
}

const ENTRY_OF_CLASS = new Map(Object.entries(DATA_CLASSES).map(([name, className]) => [className, name]));

/**
 * The formats `/download` offers for a stored node (`get_export_formats()` of its class) and the full type
 * of that class; `undefined` for process nodes and the base `Node` (no `Data`: downloads are 501).
 */
export function exportClassOf(nodeType: string): { formats: string[]; fullType: string } | undefined {
  const className = loadNodeClass(nodeType);
  if (PROCESS_OR_NODE.has(className)) return undefined;
  const entry = ENTRY_OF_CLASS.get(className);
  return entry
    ? (dataClass(entry) as { formats: string[]; fullType: string })
    : { formats: [], fullType: 'data.Data.|' };
}

/** Python's `text.rsplit('.', 2)[0]`. */
function rsplit2(text: string): string {
  const last = text.lastIndexOf('.');
  if (last < 0) return text;
  const second = text.lastIndexOf('.', last - 1);
  return second < 0 ? text.slice(0, last) : text.slice(0, second);
}
