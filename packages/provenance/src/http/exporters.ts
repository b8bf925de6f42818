import type { NodeContent } from '../storage/aiida/nodes.js';
import { computerLabels } from '../storage/aiida/nodes.js';
import { arrayDataJson } from '../wire/array-export.js';
import {
  type BandsInput,
  bandsAgrBatch,
  bandsDatBlocks,
  bandsDatMulticolumn,
  bandsGnuplot,
  bandsJson,
} from '../wire/bands-export.js';
import { codeYaml } from '../wire/code-export.js';
import { inputError } from '../wire/errors.js';
import { type NpyArray, parseNpy } from '../wire/npy.js';
import { fileKey } from '../wire/repository-tree.js';
import { structureOf, toChemdoodle, toCif, toXsf, toXyz } from '../wire/structure.js';
import type { ApiCall } from './api-call.js';

type Exporter = (node: NodeContent, call: ApiCall, aiidaVersion: string) => Promise<string>;

async function readObject(call: ApiCall, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await call.source.objects.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readArray(node: NodeContent, call: ApiCall, name: string) {
  const key = fileKey(node.repository_metadata, `${name}.npy`);
  if (!key) throw inputError('No such file is present');
  return parseNpy(await readObject(call, key));
}

/** `ArrayData` and subclasses: their `<name>.npy` repository files as the reference's JSON export. */
const arrayJson: Exporter = async (node, call, aiidaVersion) => {
  const arrays: [string, NpyArray][] = [];
  for (const attribute of Object.keys(node.attributes)) {
    if (!attribute.startsWith('array|')) continue;
    const name = attribute.slice('array|'.length);
    arrays.push([name, await readArray(node, call, name)]);
  }
  return arrayDataJson(arrays, node.uuid, aiidaVersion);
};

/** The stored file named by the node's `filename` attribute (CifData, UpfData, SinglefileData). */
const storedFile: Exporter = async (node, call) => {
  const key = fileKey(node.repository_metadata, String(node.attributes.filename ?? ''));
  if (!key) throw inputError('No such file is present');
  return (await readObject(call, key)).toString('utf8');
};

/** A BandsData export from its `bands` / `kpoints` arrays, cell and k-point labels. */
const bands =
  (write: (input: BandsInput) => string): Exporter =>
  async (node, call, aiidaVersion) => {
    const { attributes: a } = node;
    const numbers = Array.isArray(a.label_numbers) ? (a.label_numbers as number[]) : [];
    const names = Array.isArray(a.labels) ? (a.labels as string[]) : [];
    return write({
      uuid: node.uuid,
      label: node.label,
      units: String(a.units ?? 'None'),
      bands: await readArray(node, call, 'bands'),
      kpoints: await readArray(node, call, 'kpoints'),
      ...(Array.isArray(a.cell) ? { cell: a.cell as number[][] } : {}),
      labels: numbers.map((n, i): [number, string] => [n, names[i] ?? '']),
      aiidaVersion,
    });
  };

const codeExport: Exporter = async (node, call) =>
  codeYaml({
    nodeType: node.node_type,
    label: node.label,
    description: node.description,
    attributes: node.attributes,
    computerLabel:
      node.dbcomputer_id === null ? undefined : (await computerLabels(call.source.store)).get(node.dbcomputer_id),
  });
const CODE = { yaml: codeExport, yml: codeExport };

/** Exporters implemented here, per full type; other formats the reference lists answer 400. */
export const EXPORTERS: Record<string, Record<string, Exporter>> = {
  'data.core.structure.StructureData.|': {
    chemdoodle: async (node) => toChemdoodle(structureOf(node.attributes)),
    cif: async (node) => toCif(structureOf(node.attributes)),
    xsf: async (node) => toXsf(structureOf(node.attributes)),
    xyz: async (node) => toXyz(structureOf(node.attributes)),
  },
  'data.core.cif.CifData.|': { cif: storedFile },
  'data.core.upf.UpfData.|': { upf: storedFile },
  'data.core.array.ArrayData.|': { json: arrayJson },
  'data.core.array.bands.BandsData.|': {
    agr_batch: bands(bandsAgrBatch),
    dat_blocks: bands(bandsDatBlocks),
    dat_multicolumn: bands(bandsDatMulticolumn),
    gnuplot: bands(bandsGnuplot),
    json: bands(bandsJson),
  },
  'data.core.array.kpoints.KpointsData.|': { json: arrayJson },
  'data.core.array.projection.ProjectionData.|': { json: arrayJson },
  'data.core.array.trajectory.TrajectoryData.|': { json: arrayJson },
  'data.core.array.xy.XyData.|': { json: arrayJson },
  'data.core.code.Code.|': CODE,
  'data.core.code.abstract.AbstractCode.|': CODE,
  'data.core.code.containerized.ContainerizedCode.|': CODE,
  'data.core.code.installed.InstalledCode.|': CODE,
  'data.core.code.portable.PortableCode.|': CODE,
};

/** Why a listed format is not served. */
export const UNSERVED: Record<string, string> = {
  mpl_pdf: 'it is an image rendered by matplotlib, which this server does not run',
  mpl_png: 'it is an image rendered by matplotlib, which this server does not run',
  mpl_singlefile: "it is AiiDA's matplotlib plotting script, which this server does not carry",
  mpl_withjson: "it is AiiDA's matplotlib plotting script, which this server does not carry",
  agr: "it is AiiDA's xmgrace project template, which this server does not carry",
};
