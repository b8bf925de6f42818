import { runQueryBuilder } from '../storage/aiida/querybuilder.js';
import { parseQueryBuilderBody } from '../wire/querybuilder.js';
import type { Handler } from './api-call.js';
import { requestFields, sendJson } from './respond.js';

/** `POST /querybuilder/`: the body is read as JSON whatever its content type, as Flask's `get_json(force=True)`. */
export const querybuilderPostHandler: Handler = async (call) => {
  const plan = parseQueryBuilderBody(String(call.request.body ?? ''));
  const { count, data } = await runQueryBuilder(call.source.store, plan);
  const envelope = { data, ...requestFields(call.request, { rawQueryString: true }), resource_type: 'QueryBuilder' };
  return sendJson(call.reply, envelope, { totalCount: count });
};
