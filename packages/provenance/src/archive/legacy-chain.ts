/**
 * AiiDA's legacy archive migration chain (`aiida/storage/sqlite_zip/migrations/legacy/v04_to_v05` …
 * `v12_to_v13`), one step per export version, each changing `metadata.json` and `data.json` in place as
 * its AiiDA counterpart does (including what AiiDA leaves alone: the 0.11 → 0.12 parser-name mapping reads
 * a key that does not exist, so parser names are not renamed). Archives older than 0.4 are first brought
 * to the 0.4 vocabulary by `toVersion04` (legacy-migrations.ts).
 */

export type Json = Record<string, unknown>;
export interface LegacyExport {
  metadata: Json;
  data: Json;
}

const section = (parent: Json, key: string): Json => (parent[key] as Json | undefined) ?? {};
const exportData = (e: LegacyExport) => section(e.data, 'export_data');
const entityRows = (e: LegacyExport, entity: string) => Object.values(section(exportData(e), entity)) as Json[];

/** `remove_fields`: drops `fields` of `entity` from the rows and from `all_fields_info`. */
function removeFields(e: LegacyExport, entity: string, fields: string[]): void {
  for (const row of entityRows(e, entity)) for (const field of fields) delete row[field];
  const info = section(section(e.metadata, 'all_fields_info'), entity);
  for (const field of fields) delete info[field];
}

/** 0.4 → 0.5: migrations 0034 and 0036 drop `Node.nodeversion`, `Node.public`, `Computer.transport_params`. */
function v4ToV5(e: LegacyExport): void {
  removeFields(e, 'Node', ['nodeversion', 'public']);
  removeFields(e, 'Computer', ['transport_params']);
}

/** Datetime attributes were stored as naive UTC text; migration 0037 re-attaches `+00:00`. */
export function reattachUtc(value: unknown, conversion: unknown): unknown {
  if (Array.isArray(value)) {
    const conversions = Array.isArray(conversion) ? conversion : null;
    return conversions ? value.slice(0, conversions.length).map((v, i) => reattachUtc(v, conversions[i])) : value;
  }
  if (value !== null && typeof value === 'object') {
    const conversions = conversion !== null && typeof conversion === 'object' ? (conversion as Json) : null;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reattachUtc(v, conversions?.[k] ?? null)]));
  }
  if (conversion === 'date') return `${String(value)}+00:00`;
  if (conversion === null || conversion === undefined) return value;
  throw new Error(`Unknown convert_type '${String(conversion)}'`);
}

const STATUS = (state: string) => `Legacy \`JobCalculation\` with state \`${state}\``;
/** `calc_state.STATE_MAPPING`: legacy `JobCalculation` state → process_state, exit_status, process_status. */
export const STATE_MAPPING: Record<string, { process_state: string; exit_status?: number; process_status?: string }> = {
  ...Object.fromEntries(
    ['NEW', 'TOSUBMIT', 'SUBMITTING', 'WITHSCHEDULER', 'COMPUTED', 'RETRIEVING', 'PARSING'].map((s) => [
      s,
      { process_state: 'killed', process_status: STATUS(s) },
    ]),
  ),
  ...Object.fromEntries(
    ['SUBMISSIONFAILED', 'RETRIEVALFAILED', 'PARSINGFAILED'].map((s) => [
      s,
      { process_state: 'excepted', process_status: STATUS(s) },
    ]),
  ),
  FAILED: { process_state: 'finished', exit_status: 2 },
  FINISHED: { process_state: 'finished', exit_status: 0 },
};

/** 0.5 → 0.6: migration 0037 (datetimes, conversion maps dropped) and 0038 (legacy JobCalculation state). */
function v5ToV6(e: LegacyExport): void {
  const { data } = e;
  data.node_attributes = reattachUtc(data.node_attributes ?? {}, data.node_attributes_conversion ?? null);
  data.node_extras = reattachUtc(data.node_extras ?? {}, data.node_extras_conversion ?? null);
  delete data.node_attributes_conversion;
  delete data.node_extras_conversion;
  const nodes = section(exportData(e), 'Node');
  for (const [pk, values] of Object.entries(section(data, 'node_attributes')) as [string, Json][]) {
    if ((nodes[pk] as Json | undefined)?.node_type !== 'process.calculation.calcjob.CalcJobNode.') continue;
    const mapped = STATE_MAPPING[String(values.state)];
    if (!mapped) continue;
    delete values.state;
    if (mapped.exit_status !== undefined) values.exit_status = mapped.exit_status;
    values.process_state = mapped.process_state;
    if (mapped.process_status !== undefined) values.process_status = mapped.process_status;
    values.process_label = 'Legacy JobCalculation';
  }
}

const ACTIVE_STATES = new Set(['created', 'running', 'waiting']);

/** 0.6 → 0.7: migration 0040 (process nodes sealed, private `_…` flags dropped); metadata loses Attribute/Link. */
function v6ToV7(e: LegacyExport): void {
  const nodes = section(exportData(e), 'Node');
  const active: string[] = [];
  for (const [pk, content] of Object.entries(section(e.data, 'node_attributes')) as [string, Json][]) {
    const node = nodes[pk] as Json | undefined;
    if (!node) throw new Error(`Your export archive is corrupt! Org. exception: '${pk}'`);
    if (!String(node.node_type).startsWith('process.')) continue;
    if (ACTIVE_STATES.has(String(content.process_state ?? ''))) {
      active.push(String(node.uuid ?? pk));
      continue;
    }
    content.sealed = true;
    for (const key of ['_sealed', '_finished', '_failed', '_aborted', '_do_abort']) delete content[key];
  }
  if (active.length > 0)
    throw new Error(`Your export archive is corrupt! Process nodes in an active state: ${active.join(', ')}`);
  for (const dictionary of ['unique_identifiers', 'all_fields_info']) {
    const entries = section(e.metadata, dictionary);
    delete entries.Attribute;
    delete entries.Link;
  }
}

/** 0.7 → 0.8: migration 0043 renames link labels `_return` to `result`. */
function v7ToV8(e: LegacyExport): void {
  for (const link of (e.data.links_uuid as Json[] | undefined) ?? [])
    if (link.label === '_return') link.label = 'result';
}

/** 0.8 → 0.9: migration 0044 renames group type strings. */
function v8ToV9(e: LegacyExport): void {
  const mapping: Record<string, string> = {
    user: 'core',
    'data.upf': 'core.upf',
    'auto.import': 'core.import',
    'auto.run': 'core.auto',
  };
  for (const group of entityRows(e, 'Group')) {
    const renamed = mapping[String(group.type_string)];
    if (renamed) group.type_string = renamed;
  }
}

/** 0.9 → 0.10: metadata version only. */
function v9ToV10(): void {}

/** 0.10 → 0.11: `Computer.name` → `label`. */
function v10ToV11(e: LegacyExport): void {
  for (const computer of entityRows(e, 'Computer')) {
    computer.label = computer.name;
    delete computer.name;
  }
  const info = section(section(e.metadata, 'all_fields_info'), 'Computer');
  if ('name' in info) {
    info.label = info.name;
    delete info.name;
  }
}

const CORE_DATA_TYPES = [
  'array.ArrayData',
  'array.bands.BandsData',
  'array.kpoints.KpointsData',
  'array.projection.ProjectionData',
  'array.trajectory.TrajectoryData',
  'array.xy.XyData',
  'base.BaseData',
  'bool.Bool',
  'cif.CifData',
  'code.Code',
  'dict.Dict',
  'float.Float',
  'folder.FolderData',
  'int.Int',
  'list.List',
  'numeric.NumericData',
  'orbital.OrbitalData',
  'remote.RemoteData',
  'remote.stash.RemoteStashData',
  'remote.stash.folder.RemoteStashFolderData',
  'singlefile.SinglefileData',
  'str.Str',
  'structure.StructureData',
  'upf.UpfData',
];
export const MAPPING_DATA: Record<string, string> = Object.fromEntries(
  CORE_DATA_TYPES.map((t) => [`data.${t}.`, `data.core.${t}.`]),
);
const MAPPING_PROCESSES: Record<string, string> = {
  'aiida.calculations:arithmetic.add': 'aiida.calculations:core.arithmetic.add',
  'aiida.calculations:templatereplacer': 'aiida.calculations:core.templatereplacer',
  'aiida.workflows:arithmetic.add_multiply': 'aiida.workflows:core.arithmetic.add_multiply',
  'aiida.workflows:arithmetic.multiply_add': 'aiida.workflows:core.arithmetic.multiply_add',
};
const MAPPING_SCHEDULERS: Record<string, string> = Object.fromEntries(
  ['direct', 'lsf', 'pbspro', 'sge', 'slurm', 'torque'].map((s) => [s, `core.${s}`]),
);

/** 0.11 → 0.12: `core.` entry points for data types, built-in processes and schedulers. */
function v11ToV12(e: LegacyExport): void {
  for (const node of entityRows(e, 'Node')) {
    const nodeType = MAPPING_DATA[String(node.node_type)];
    if (nodeType) node.node_type = nodeType;
    const processType = MAPPING_PROCESSES[String(node.process_type)];
    if (processType) node.process_type = processType;
  }
  for (const computer of entityRows(e, 'Computer')) {
    const scheduler = MAPPING_SCHEDULERS[String(computer.scheduler_type)];
    if (scheduler) computer.scheduler_type = scheduler;
  }
}

/** 0.12 → 0.13: `core.` transports. */
function v12ToV13(e: LegacyExport): void {
  const mapping: Record<string, string> = { local: 'core.local', ssh: 'core.ssh' };
  for (const computer of entityRows(e, 'Computer')) {
    const transport = mapping[String(computer.transport_type)];
    if (transport) computer.transport_type = transport;
  }
}

/** `LEGACY_MIGRATE_FUNCTIONS`: version → [next version, step]. */
export const LEGACY_STEPS: Record<string, [string, (e: LegacyExport) => void]> = {
  '0.4': ['0.5', v4ToV5],
  '0.5': ['0.6', v5ToV6],
  '0.6': ['0.7', v6ToV7],
  '0.7': ['0.8', v7ToV8],
  '0.8': ['0.9', v8ToV9],
  '0.9': ['0.10', v9ToV10],
  '0.10': ['0.11', v10ToV11],
  '0.11': ['0.12', v11ToV12],
  '0.12': ['0.13', v12ToV13],
};
export const FINAL_LEGACY_VERSION = '0.13';

/** Applies every step from `metadata.export_version` up to 0.13 (in place). */
export function migrateLegacyExport(e: LegacyExport): void {
  let version = String(e.metadata.export_version);
  while (version !== FINAL_LEGACY_VERSION) {
    const step = LEGACY_STEPS[version];
    if (!step) throw new Error(`cannot migrate a legacy archive of export version ${version}`);
    step[1](e);
    version = step[0];
    e.metadata.export_version = version;
  }
}
