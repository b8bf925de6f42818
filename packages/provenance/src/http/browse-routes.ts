import { HttpError, normalizeError } from '@atrium/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorPage, filePage } from '../browse/file-page.js';
import { nodeCaption } from '../browse/graph-svg.js';
import { landingPage } from '../browse/landing-page.js';
import { parseListFilters } from '../browse/list-filters.js';
import { nodeListPage } from '../browse/list-page.js';
import { loadNodeList, summarizeSource } from '../browse/loaders.js';
import { nodePage } from '../browse/node-page.js';
import { loadNodeView } from '../browse/node-view.js';
import { readPrefix } from '../browse/object-read.js';
import { PREVIEW_BYTES, subtree, textOf } from '../browse/repository-files.js';
import { BROWSE_CSP } from '../browse/shell.js';
import { nodeHref } from '../browse/values.js';
import type { OpenedSource } from '../open-source.js';
import { findByUuidPrefix } from '../storage/aiida/entities.js';
import { getNodeByUuid } from '../storage/aiida/nodes.js';
import { NODES } from '../wire/resources.js';
import { isUuidLike } from './api-call.js';
import { overloadProblem } from './error-handler.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function sendHtml(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .headers({
      'content-security-policy': BROWSE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-cache',
    })
    .type('text/html; charset=utf-8')
    .send(body);
}

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/** Errors of browser pages as pages: a query past its deadline 503, missing things 404, the rest 500 (logged). */
function browseErrorHandler(timeoutMs: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const overload = overloadProblem(error, timeoutMs);
    if (overload) {
      request.log.warn({ route: request.routeOptions.url, code: overload.code }, 'query refused');
      if (overload.retryAfter) reply.header('retry-after', overload.retryAfter);
      return sendHtml(reply, 503, errorPage(503, overload.message));
    }
    const problem = normalizeError(error);
    if (problem.status >= 500) {
      request.log.error({ route: request.routeOptions.url, error: error.name, code: error.code }, 'page failed');
      return sendHtml(reply, 500, errorPage(500, 'This page could not be drawn; the error is logged.'));
    }
    return sendHtml(reply, problem.status, errorPage(problem.status, problem.message));
  };
}

type Params = { source: string; uuid: string; '*': string };

/**
 * The provenance browser: `GET /` lists the sources for a browser (API clients keep the API's 404), and
 * `/browse/{source}/…` are server-rendered pages of nodes, their graphs, contents and files.
 */
export function browseRoutes(sources: readonly OpenedSource[], timeoutMs: number) {
  const byName = new Map(sources.map((s) => [s.name, s]));
  const sourceOf = (request: FastifyRequest) => {
    const source = byName.get((request.params as Params).source);
    if (!source) throw new HttpError(404, 'not_found', 'No source of that name is served here.');
    return source;
  };
  const nodeOf = async (source: OpenedSource, uuid: string) => {
    const node = UUID.test(uuid) ? await getNodeByUuid(source.store, uuid) : undefined;
    if (!node) throw new HttpError(404, 'not_found', `No node with the UUID ${uuid} is in ${source.name}.`);
    return node;
  };

  return async (app: FastifyInstance) => {
    app.setErrorHandler(browseErrorHandler(timeoutMs));
    app.addHook('onSend', async (_request, reply) => {
      reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
    });

    app.get('/', async (request, reply) => {
      if (!wantsHtml(request)) return reply.callNotFound();
      const summaries = await Promise.all(sources.map((s, i) => summarizeSource(s, i === 0)));
      return sendHtml(reply, 200, landingPage(summaries));
    });
    app.get('/browse', async (_request, reply) => reply.redirect('/'));
    app.get('/browse/:source', async (request, reply) =>
      reply.redirect(`/browse/${encodeURIComponent(sourceOf(request).name)}/nodes`),
    );

    app.get('/browse/:source/nodes', async (request, reply) => {
      const source = sourceOf(request);
      const { filters, errors } = parseListFilters(request.query as Record<string, string>);
      const view = await loadNodeList(source, filters, errors);
      return sendHtml(reply, errors.length ? 400 : 200, nodeListPage(view));
    });

    app.get('/browse/:source/nodes/:uuid', async (request, reply) => {
      const source = sourceOf(request);
      const { uuid } = request.params as Params;
      if (!UUID.test(uuid) && isUuidLike(uuid)) {
        // A uuid prefix (as AiiDA accepts) leads to the node's own page when it names exactly one.
        const rows = await findByUuidPrefix(source.store, NODES, uuid);
        if (rows.length === 1) return reply.redirect(nodeHref(source.name, String(rows[0]?.uuid)));
      }
      const view = UUID.test(uuid) ? await loadNodeView(source, uuid) : undefined;
      if (!view) throw new HttpError(404, 'not_found', `No node with the UUID ${uuid} is in ${source.name}.`);
      return sendHtml(reply, 200, nodePage(view));
    });

    app.get('/browse/:source/nodes/:uuid/files/*', async (request, reply) => {
      const source = sourceOf(request);
      const { uuid, '*': path } = request.params as Params;
      const node = await nodeOf(source, uuid);
      const entry = subtree(node.repository_metadata, path);
      if (!entry) throw new HttpError(404, 'not_found', `The node has no file or directory ${path}.`);
      const [caption] = nodeCaption(node);
      const page = { source: source.name, uuid, caption, path, sizeOf: (key: string) => source.objects.size(key) };
      if (entry.k === undefined)
        return sendHtml(reply, 200, filePage({ ...page, view: { kind: 'directory', tree: entry } }));
      if (!source.objects.has(entry.k)) throw new HttpError(404, 'not_found', 'The file is not in this repository.');
      const size = source.objects.size(entry.k);
      const bytes = await readPrefix(source.objects, entry.k, PREVIEW_BYTES + 1);
      const text = textOf(bytes.subarray(0, PREVIEW_BYTES));
      const view = { kind: 'file' as const, size, text, truncated: bytes.length > PREVIEW_BYTES };
      return sendHtml(reply, 200, filePage({ ...page, view }));
    });

    app.get('/browse/:source/nodes/:uuid/raw/*', async (request, reply) => {
      const source = sourceOf(request);
      const { uuid, '*': path } = request.params as Params;
      const node = await nodeOf(source, uuid);
      const key = subtree(node.repository_metadata, path)?.k;
      if (key === undefined || !source.objects.has(key)) {
        throw new HttpError(404, 'not_found', `The node has no file ${path}.`);
      }
      const name = (path.split('/').pop() ?? 'file').replace(/[^\x20-\x7e]|["\\]/g, '_');
      const size = source.objects.size(key);
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('x-content-type-options', 'nosniff');
      if (size !== undefined) reply.header('content-length', String(size));
      return reply.send(await source.objects.open(key));
    });
  };
}
