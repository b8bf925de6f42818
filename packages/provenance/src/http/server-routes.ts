import { AVAILABLE_ENDPOINTS } from '../wire/endpoints.js';
import type { Handler } from './api-call.js';
import { envelope, sendJson } from './respond.js';

export const API_PREFIX = '/api/v4';
export const API_VERSION = '4.1.0';

export function serverInfoHandler(aiidaVersion: string): Handler {
  const [major, minor, revision] = API_VERSION.split('.');
  const info = {
    API_major_version: major,
    API_minor_version: minor,
    API_prefix: API_PREFIX,
    API_revision_version: revision,
    AiiDA_version: aiidaVersion,
  };
  return async (call) => sendJson(call.reply, envelope(call.request, 'Info', info, undefined), { totalCount: 1 });
}

export const endpointsHandler: Handler = async (call) =>
  sendJson(call.reply, envelope(call.request, 'Info', { available_endpoints: AVAILABLE_ENDPOINTS }, undefined), {
    totalCount: 1,
  });

const QB_GET_MESSAGE =
  'Method Not Allowed. Use HTTP POST requests to use the AiiDA QueryBuilder. POST JSON data, which MUST be a valid QueryBuilder.as_dict() dictionary as a JSON object. See the documentation at https://aiida.readthedocs.io/projects/aiida-core/en/latest/topics/database.html#converting-the-querybuilder-to-from-a-dictionary for more information.';

export const querybuilderGetHandler: Handler = async (call) =>
  sendJson(call.reply, envelope(call.request, 'QueryBuilder', { message: QB_GET_MESSAGE }, undefined), {
    status: 405,
    totalCount: 1,
  });
