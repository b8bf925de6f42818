import type { NodeContent } from '../storage/aiida/nodes.js';
import { arrayDataJson } from '../wire/array-export.js';
import { inputError, notAvailable, validationError } from '../wire/errors.js';
import { fullTypeOf } from '../wire/full-type.js';
import { DOWNLOAD_FORMATS, isProcess } from '../wire/node-types.js';
import { parseNpy } from '../wire/npy.js';
import { validateRequest } from '../wire/pagination.js';
import { fileKey, listDirectory } from '../wire/repository-tree.js';
import { structureOf, toChemdoodle, toCif, toXsf, toXyz } from '../wire/structure.js';
import { type ApiCall, type Handler, queryParams, sendEnvelope } from './api-call.js';
import { nodeFromPath } from './node-routes.js';

async function sendObject(call: ApiCall, key: string, filename: string) {
  const stream = await call.source.objects.open(key);
  const size = call.source.objects.size(key);
  call.reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${filename}"`);
  if (size !== undefined) call.reply.header('content-length', String(size));
  return call.reply.send(stream);
}

export const repoListHandler: Handler = async (call) => {
  const params = queryParams(call);
  validateRequest(params, undefined, false);
  const node = await nodeFromPath(call, params);
  const entries = listDirectory(node.repository_metadata, params.filename ?? '');
  return sendEnvelope(call, 'nodes', { repo_list: entries }, call.params.id ?? null, { totalCount: 1 });
};

export const repoContentsHandler: Handler = async (call) => {
  const params = queryParams(call);
  validateRequest(params, undefined, false);
  const node = await nodeFromPath(call, params);
  if (params.filename === undefined) throw validationError('filename is not provided');
  const key = fileKey(node.repository_metadata, params.filename);
  if (key === undefined || !call.source.objects.has(key)) throw inputError('No such file is present');
  return sendObject(call, key, params.filename);
};

const DOWNLOAD_HINT = 'The available download formats can be queried using the /nodes/download_formats/ endpoint.';

async function readObject(call: ApiCall, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await call.source.objects.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Exporter = (node: NodeContent, call: ApiCall, aiidaVersion: string) => Promise<string>;

/** `ArrayData` and subclasses: their `<name>.npy` repository files as the reference's JSON export. */
const arrayJson: Exporter = async (node, call, aiidaVersion) => {
  const arrays: [string, ReturnType<typeof parseNpy>][] = [];
  for (const attribute of Object.keys(node.attributes)) {
    if (!attribute.startsWith('array|')) continue;
    const name = attribute.slice('array|'.length);
    const key = fileKey(node.repository_metadata, `${name}.npy`);
    if (!key) throw inputError('No such file is present');
    arrays.push([name, parseNpy(await readObject(call, key))]);
  }
  return arrayDataJson(arrays, node.uuid, aiidaVersion);
};

/** The stored file named by the node's `filename` attribute (CifData, UpfData, SinglefileData). */
const storedFile: Exporter = async (node, call) => {
  const key = fileKey(node.repository_metadata, String(node.attributes.filename ?? ''));
  if (!key) throw inputError('No such file is present');
  return (await readObject(call, key)).toString('utf8');
};

/** Exporters implemented here, per full type; other formats the reference lists answer 400. */
const EXPORTERS: Record<string, Record<string, Exporter>> = {
  'data.core.structure.StructureData.|': {
    chemdoodle: async (node) => toChemdoodle(structureOf(node.attributes)),
    cif: async (node) => toCif(structureOf(node.attributes)),
    xsf: async (node) => toXsf(structureOf(node.attributes)),
    xyz: async (node) => toXyz(structureOf(node.attributes)),
  },
  'data.core.cif.CifData.|': { cif: storedFile },
  'data.core.upf.UpfData.|': { upf: storedFile },
  'data.core.array.ArrayData.|': { json: arrayJson },
  'data.core.array.kpoints.KpointsData.|': { json: arrayJson },
  'data.core.array.projection.ProjectionData.|': { json: arrayJson },
  'data.core.array.trajectory.TrajectoryData.|': { json: arrayJson },
  'data.core.array.xy.XyData.|': { json: arrayJson },
};

export const downloadHandler =
  (aiidaVersion: string): Handler =>
  async (call) => {
    const params = queryParams(call);
    validateRequest(params, undefined, false);
    const node = await nodeFromPath(call, params);
    if (isProcess(node.node_type)) throw notAvailable('This endpoint is not available for Process nodes.');
    const format = params.downloadFormat;
    if (format === undefined) throw inputError(`Please specify the download format. ${DOWNLOAD_HINT}`);
    const fullType = fullTypeOf(node.node_type, '');
    if (!(DOWNLOAD_FORMATS[fullType] ?? []).includes(format)) {
      throw inputError(`The format ${format} is not supported. ${DOWNLOAD_HINT}`);
    }
    const exporter = EXPORTERS[fullType]?.[format];
    if (!exporter) {
      const served = Object.keys(EXPORTERS[fullType] ?? {});
      throw validationError(
        `The format ${format} is not implemented by this server for ${fullType}; implemented formats: ${served.join(', ') || 'none'}.`,
      );
    }
    const content = await exporter(node, call, aiidaVersion);
    const filename = typeof node.attributes.filename === 'string' ? node.attributes.filename : `${node.uuid}.${format}`;
    if (!params.download) {
      const data = { download: { data: content, filename, status: 200 } };
      return sendEnvelope(call, 'nodes', data, call.params.id ?? null, { totalCount: 1 });
    }
    return call.reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(content);
  };
