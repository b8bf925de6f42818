import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Source } from '../source.js';
import { ENDPOINT_RULES, fastifyPattern } from '../wire/endpoints.js';
import { COMPUTERS, GROUPS, NODES, USERS } from '../wire/resources.js';
import { type ApiCall, type Handler, queryParams } from './api-call.js';
import { provenanceErrorHandler } from './error-handler.js';
import { listHandler } from './list-routes.js';
import {
  contentsHandler,
  downloadFormatsHandler,
  fullTypesHandler,
  linksHandler,
  projectableHandler,
  statisticsHandler,
  treeHandler,
} from './node-routes.js';
import { calcjobFilesHandler, reportHandler } from './process-routes.js';
import { querybuilderPostHandler } from './querybuilder-routes.js';
import { downloadHandler, repoContentsHandler, repoListHandler } from './repository-routes.js';
import { envelope, rawParts, sendJson } from './respond.js';
import { endpointsHandler, querybuilderGetHandler, serverInfoHandler } from './server-routes.js';

export interface ApiOptions {
  aiidaVersion: string;
  /** All served sources by name, for `profile=` selection. */
  sources: ReadonlyMap<string, Source>;
  /** The statement deadline, named in the 503 of a query that ran out of time. */
  queryTimeoutMs: number;
}

function handlers(aiidaVersion: string): Record<string, Handler> {
  const nodes = listHandler(NODES);
  const table: Record<string, Handler> = {
    '/api/v4/calcjobs/<id>/input_files/': calcjobFilesHandler('input_files'),
    '/api/v4/calcjobs/<id>/output_files/': calcjobFilesHandler('output_files'),
    '/api/v4/nodes/<id>/contents/attributes/': contentsHandler('attributes'),
    '/api/v4/nodes/<id>/contents/comments/': contentsHandler('comments'),
    '/api/v4/nodes/<id>/contents/derived_properties/': contentsHandler('derived_properties'),
    '/api/v4/nodes/<id>/contents/extras/': contentsHandler('extras'),
    '/api/v4/nodes/<id>/download/': downloadHandler(aiidaVersion),
    '/api/v4/nodes/<id>/links/tree/': treeHandler,
    '/api/v4/nodes/<id>/repo/contents/': repoContentsHandler,
    '/api/v4/nodes/<id>/repo/list/': repoListHandler,
    '/api/v4/nodes/download_formats/': downloadFormatsHandler,
    '/api/v4/nodes/full_types/': fullTypesHandler(false),
    '/api/v4/nodes/full_types_count/': fullTypesHandler(true),
    '/api/v4/nodes/statistics/': statisticsHandler,
    '/api/v4/processes/<id>/report/': reportHandler,
    '/api/v4/querybuilder/': querybuilderGetHandler,
    '/api/v4/': endpointsHandler,
    '/api/v4/server/': serverInfoHandler(aiidaVersion),
    '/api/v4/server/endpoints/': endpointsHandler,
  };
  for (const [name, resource] of [
    ['computers', COMPUTERS],
    ['groups', GROUPS],
    ['users', USERS],
    ['nodes', NODES],
  ] as const) {
    const list = name === 'nodes' ? nodes : listHandler(resource);
    for (const suffix of ['', '<id>/', 'page/', 'page/<int:page>/']) table[`/api/v4/${name}/${suffix}`] = list;
    table[`/api/v4/${name}/projectable_properties/`] = projectableHandler(name);
  }
  table['/api/v4/processes/projectable_properties/'] = projectableHandler('processes');
  for (const direction of ['incoming', 'outgoing'] as const) {
    for (const suffix of ['', 'page/', 'page/<int:page>/']) {
      table[`/api/v4/nodes/<id>/links/${direction}/${suffix}`] = linksHandler(direction);
    }
  }
  return table;
}

const PROFILE_CLASS: Record<string, string> = {
  nodes: 'Node',
  computers: 'Computer',
  users: 'User',
  groups: 'Group',
  processes: 'ProcessNode',
  calcjobs: 'CalcJobNode',
  querybuilder: 'QueryBuilder',
};

/** `profile=<name>` picks another served source; an unknown one is the reference's 400 envelope. */
function sourceFor(request: FastifyRequest, reply: FastifyReply, group: string, own: Source, options: ApiOptions) {
  if (group === 'server' || !rawParts(request).query.includes('profile')) return own;
  const probe: ApiCall = { request, reply, source: own, params: {} };
  const { profile } = queryParams(probe);
  if (profile === undefined || profile === own.name) return own;
  const other = options.sources.get(profile);
  if (other) return other;
  const data = { message: 'specifying an explicit profile is not enabled for this REST API.' };
  sendJson(reply, envelope(request, PROFILE_CLASS[group] ?? group, data, undefined), { status: 400, totalCount: 0 });
  return undefined;
}

const PREFLIGHT_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/**
 * flask-cors with its defaults, as the reference configures it: `*` or the echoed Origin; a preflight
 * for one of its methods also gets those methods and the requested headers echoed (sorted), no max-age.
 */
function applyCors(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  else reply.header('access-control-allow-origin', '*');
  const method = request.headers['access-control-request-method']?.toUpperCase();
  if (request.method !== 'OPTIONS' || !method || !PREFLIGHT_METHODS.includes(method)) return;
  const requested = request.headers['access-control-request-headers'];
  const allowHeaders = requested
    ?.split(',')
    .map((name) => name.trim())
    .sort()
    .join(', ');
  if (allowHeaders) reply.header('access-control-allow-headers', allowHeaders);
  reply.header('access-control-allow-methods', PREFLIGHT_METHODS.join(', '));
}

/** Registers the 46 routes of one source (GET/HEAD/OPTIONS; POST only on the query builder). */
export function apiPlugin(source: Source, options: ApiOptions) {
  return async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), cors: false };
    });
    app.addHook('onRequest', async (request, reply) => applyCors(request, reply));
    app.setErrorHandler(provenanceErrorHandler(options.queryTimeoutMs));
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const table = handlers(options.aiidaVersion);
    for (const [group, rule] of ENDPOINT_RULES) {
      const handler = table[rule];
      if (!handler) throw new Error(`no handler for ${rule}`);
      const url = fastifyPattern(rule);
      const serve = (run: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
        const chosen = sourceFor(request, reply, group, source, options);
        if (!chosen) return reply;
        await run({ request, reply, source: chosen, params: request.params as Record<string, string> });
        return reply;
      };
      app.get(url, serve(handler));
      if (group === 'querybuilder') app.post(url, serve(querybuilderPostHandler));
      app.options(url, async (_request, reply) =>
        reply.code(200).header('content-type', 'text/html; charset=utf-8').send(''),
      );
    }
  };
}
