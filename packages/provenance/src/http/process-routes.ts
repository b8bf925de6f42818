import { HttpError } from '@atrium/core';
import type { Row } from '../storage/aiida/entities.js';
import { findByUuidPrefix } from '../storage/aiida/entities.js';
import { findNodeByPk, findRetrievedRepository, getNodeById, listLogs } from '../storage/aiida/nodes.js';
import { inputError } from '../wire/errors.js';
import { CALCJOB_NODE_TYPE, isProcess } from '../wire/node-types.js';
import { listDirectory } from '../wire/repository-tree.js';
import { NODES } from '../wire/resources.js';
import { type ApiCall, type Handler, queryParams, sendEnvelope } from './api-call.js';

const fail = (message: string) => new HttpError(500, 'aiida_error', message);

/** `load_node(<segment>)`: digits are a pk, anything else a uuid prefix; failures are the reference's 500s. */
async function loadNode(call: ApiCall): Promise<Row> {
  const segment = call.params.id ?? '';
  if (/^\d+$/.test(segment)) {
    const row = await findNodeByPk(call.source.store, Number(segment));
    if (!row) throw fail(`no Node found with ID<${Number(segment)}>: No result was found`);
    return row;
  }
  const rows = await findByUuidPrefix(call.source.store, NODES, segment, ['id', 'uuid', 'node_type']);
  if (rows.length > 1) throw fail(`multiple Node entries found with UUID<${segment}>`);
  const row = rows[0];
  if (!row) throw fail(`no Node found with UUID<${segment}>: No result was found`);
  return row;
}

const PROCESS_CLASS = "<class 'aiida.orm.nodes.process.process.ProcessNode'>";
const CALCJOB_CLASS = "<class 'aiida.orm.nodes.process.calculation.calcjob.CalcJobNode'>";

export const reportHandler: Handler = async (call) => {
  queryParams(call);
  const node = await loadNode(call);
  if (!isProcess(node.node_type as string)) {
    throw inputError(`node ${call.params.id} is not of the required type ${PROCESS_CLASS}`);
  }
  const logs = await listLogs(call.source.store, node.id as number);
  return sendEnvelope(call, 'processes', { logs }, call.params.id ?? null, { totalCount: 1 });
};

/** `filename` comes from the form-decoded raw arguments here, so quotes are kept (as in the reference). */
function rawFilename(call: ApiCall): string {
  const query = call.request.query as Record<string, string | string[] | undefined>;
  const value = query.filename;
  return (Array.isArray(value) ? value[value.length - 1] : value) ?? '';
}

export const calcjobFilesHandler =
  (which: 'input_files' | 'output_files'): Handler =>
  async (call) => {
    queryParams(call);
    const found = await loadNode(call);
    if (found.node_type !== CALCJOB_NODE_TYPE) {
      throw inputError(`node ${call.params.id} is not of the required type ${CALCJOB_CLASS}`);
    }
    const node = await getNodeById(call.source.store, found.id as number);
    const tree =
      which === 'input_files'
        ? node?.repository_metadata
        : await findRetrievedRepository(call.source.store, found.id as number);
    const data = tree
      ? listDirectory(tree, rawFilename(call))
      : { data: 'This node does not have retrieved folder', status: 200 };
    return sendEnvelope(call, 'calcjobs', data, call.params.id ?? null, { totalCount: 1 });
  };
