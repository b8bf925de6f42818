import { exportClassOf, loadNodeClass } from '../wire/download-formats.js';
import { inputError, notAvailable, validationError } from '../wire/errors.js';
import { validateRequest } from '../wire/pagination.js';
import { pyStr } from '../wire/python-values.js';
import { fileKey, listDirectory } from '../wire/repository-tree.js';
import { type ApiCall, type Handler, queryParams, sendEnvelope } from './api-call.js';
import { EXPORTERS, UNSERVED } from './exporters.js';
import { nodeFromPath } from './node-routes.js';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

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
  // AiiDA returns an empty file's (falsy) content through its JSON envelope instead of as a file.
  if (key === EMPTY_SHA256 || call.source.objects.size(key) === 0) {
    return sendEnvelope(call, 'nodes', '', call.params.id ?? null, { totalCount: 1 });
  }
  return sendObject(call, key, params.filename);
};

const SINGLE_FILE_CLASSES = new Set(['SinglefileData', 'CifData', 'UpfData']);

const DOWNLOAD_HINT = 'The available download formats can be queried using the /nodes/download_formats/ endpoint.';

export const downloadHandler =
  (aiidaVersion: string): Handler =>
  async (call) => {
    const params = queryParams(call);
    validateRequest(params, undefined, false);
    const node = await nodeFromPath(call, params);
    const loaded = exportClassOf(node.node_type);
    if (!loaded) throw notAvailable('This endpoint is not available for Process nodes.');
    const requested = params.downloadFormat;
    if (requested === undefined) throw inputError(`Please specify the download format. ${DOWNLOAD_HINT}`);
    // `download_format in node.get_export_formats()`: only a string can be one of them.
    const format = typeof requested === 'string' ? requested : undefined;
    if (format === undefined || !loaded.formats.includes(format)) {
      throw inputError(`The format ${pyStr(requested)} is not supported. ${DOWNLOAD_HINT}`);
    }
    const { fullType } = loaded;
    const exporter = EXPORTERS[fullType]?.[format];
    if (!exporter) {
      const served = Object.keys(EXPORTERS[fullType] ?? {});
      const why = UNSERVED[format] ? ` because ${UNSERVED[format]}` : '';
      throw validationError(
        `The format ${format} is not implemented by this server for ${fullType}${why}; implemented formats: ${served.join(', ') || 'none'}.`,
      );
    }
    const content = await exporter(node, call, aiidaVersion);
    // `node.filename` exists on SinglefileData and its subclasses (CifData, UpfData) only (DataTranslator).
    const named = SINGLE_FILE_CLASSES.has(loadNodeClass(node.node_type));
    const filename = named ? String(node.attributes.filename ?? 'None') : `${node.uuid}.${format}`;
    if (!params.download) {
      const data = { download: { data: content, filename, status: 200 } };
      return sendEnvelope(call, 'nodes', data, call.params.id ?? null, { totalCount: 1 });
    }
    return call.reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(content);
  };
