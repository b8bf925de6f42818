import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_PERMUTATIONS } from '../domain/perf-query.js';
import type { BenchContext } from '../http/context.js';
import { findProject } from '../storage/projects.js';
import { isResourceId, parseResourceId } from '../wire/slug.js';
import { type Asset, loadAssets, staticImports } from './assets.js';
import { isConsolePage } from './known-pages.js';
import { consoleShell, type ShellMeta } from './shell.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

/** The embeddable plot of a public project is meant for other sites' iframes. */
const EMBED_CSP = CSP.replace("frame-ancestors 'self'", 'frame-ancestors *');

const NOT_FOUND = 'Project Not Found';

/** The console's pages (Bencher's URL scheme); each answers the same shell, the client draws the page. */
export const CONSOLE_PAGES = ['/perf', '/perf/*', '/auth/*', '/console', '/console/*'] as const;

function sendShell(reply: FastifyReply, meta: ShellMeta, modules: readonly string[]) {
  reply
    .headers({
      'content-security-policy': meta.embed ? EMBED_CSP : CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(consoleShell(meta, modules));
}

function sendAsset(reply: FastifyReply, asset: Asset, acceptEncoding: string | undefined) {
  const gzip = /\bgzip\b/.test(acceptEncoding ?? '');
  reply
    .headers({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', vary: 'accept-encoding' })
    .type(asset.type);
  if (gzip) reply.header('content-encoding', 'gzip');
  reply.send(gzip ? asset.gzip : asset.body);
}

const PERF_KEYS = ['branches', 'heads', 'testbeds', 'benchmarks', 'measures', 'start_time', 'end_time'];
const DIMENSIONS = ['branches', 'testbeds', 'benchmarks', 'measures'];

/**
 * The perf API query of a page's view, made as the client's `perfQuery` (client/perf.ts) makes it, so
 * that a preload of it is the very request the page sends; undefined when the page will not ask.
 */
function perfApiQuery(params: URLSearchParams): string | undefined {
  const counts = DIMENSIONS.map((name) => (params.get(name) ?? '').split(',').filter(Boolean).length);
  const permutations = counts.reduce((n, count) => n * count, 1);
  if (permutations === 0 || permutations > MAX_PERMUTATIONS) return undefined;
  const query = new URLSearchParams();
  for (const key of PERF_KEYS) {
    const value = params.get(key);
    if (value) query.set(key, value);
  }
  return query.toString();
}

/** The public perf page's title, preview image and data (public projects only: a private one looks missing). */
async function perfMeta(context: BenchContext, projectId: string, search: string): Promise<ShellMeta> {
  const project = isResourceId(projectId)
    ? await findProject(context.database.db, parseResourceId(projectId))
    : undefined;
  if (project?.visibility !== 'public') return { title: NOT_FOUND };
  const api = `/v0/projects/${encodeURIComponent(project.slug)}`;
  const params = new URLSearchParams(search);
  const plotted = DIMENSIONS.every((name) => params.get(name));
  const data = perfApiQuery(params);
  return {
    title: `📈 ${project.name}`,
    description: `View ${project.name} continuous benchmarking results and performance regressions`,
    image: plotted ? `${api}/perf/img${search}` : undefined,
    data: data === undefined ? undefined : `${api}/perf?${data}`,
  };
}

export function registerConsole(app: FastifyInstance, context: BenchContext): void {
  const assets = loadAssets();
  const modules = staticImports(assets, 'app.js');
  app.get<{ Params: { file: string } }>('/console/assets/:file', (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) return reply.code(404).type('text/plain').send('Not found');
    sendAsset(reply, asset, request.headers['accept-encoding']);
  });
  // What the sign-in pages offer: OAuth buttons for the configured providers; the outbox note without SMTP.
  const settings = JSON.stringify({
    outbox: context.config.smtp === undefined,
    oauth: (['github', 'google'] as const).filter((name) => context.config.auth[name] !== undefined),
  });
  app.get('/console/settings.json', (_request, reply) => {
    reply.type('application/json').header('cache-control', 'no-store').send(settings);
  });
  const perfPage =
    (embed: boolean) => async (request: FastifyRequest<{ Params: { project: string } }>, reply: FastifyReply) => {
      const query = request.url.indexOf('?');
      const meta = await perfMeta(context, request.params.project, query < 0 ? '' : request.url.slice(query));
      sendShell(reply, { ...meta, embed: embed && meta.title !== NOT_FOUND }, modules);
    };
  app.get('/perf/:project', perfPage(false));
  app.get('/perf/:project/embed', perfPage(true));
  for (const path of CONSOLE_PAGES)
    app.get(path, (request, reply) => {
      if (request.url.startsWith('/console') && !isConsolePage(request.url)) reply.code(404);
      sendShell(reply, { title: 'Console' }, modules);
    });
}
