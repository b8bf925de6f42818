import { runQueryBuilder } from '../storage/aiida/querybuilder.js';
import { internalError } from '../wire/errors.js';
import { parseQueryBuilder } from '../wire/querybuilder.js';
import type { Handler } from './api-call.js';
import { requestFields, sendJson } from './respond.js';

const BAD_JSON = '400 Bad Request: The browser (or proxy) sent a request that this server could not understand.';

/** `POST /querybuilder/`: the body is read as JSON whatever its content type, as Flask's `get_json(force=True)`. */
export const querybuilderPostHandler: Handler = async (call) => {
  let body: unknown;
  try {
    body = JSON.parse(String(call.request.body ?? ''));
  } catch {
    throw internalError(BAD_JSON);
  }
  const { count, data } = await runQueryBuilder(call.source.store, parseQueryBuilder(body));
  const envelope = { data, ...requestFields(call.request, { rawQueryString: true }), resource_type: 'QueryBuilder' };
  return sendJson(call.reply, envelope, { totalCount: count });
};
