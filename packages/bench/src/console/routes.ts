import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BenchContext } from '../http/context.js';
import { findProject } from '../storage/projects.js';
import { parseResourceId } from '../wire/slug.js';
import { type Asset, loadAssets } from './assets.js';
import { consoleShell, type ShellMeta } from './shell.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

/** The console's pages (Bencher's URL scheme); each answers the same shell, the client draws the page. */
export const CONSOLE_PAGES = ['/perf', '/perf/*', '/auth/*', '/console', '/console/*'] as const;

function sendShell(reply: FastifyReply, meta: ShellMeta) {
  reply
    .headers({
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(consoleShell(meta));
}

function sendAsset(reply: FastifyReply, asset: Asset, acceptEncoding: string | undefined) {
  const gzip = /\bgzip\b/.test(acceptEncoding ?? '');
  reply
    .headers({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', vary: 'accept-encoding' })
    .type(asset.type);
  if (gzip) reply.header('content-encoding', 'gzip');
  reply.send(gzip ? asset.gzip : asset.body);
}

/** The public perf page's title and preview image (public projects only: a private one looks missing). */
async function perfMeta(context: BenchContext, projectId: string, search: string): Promise<ShellMeta> {
  const project = await findProject(context.database.db, parseResourceId(projectId));
  if (project?.visibility !== 'public') return { title: 'Project Not Found' };
  const params = new URLSearchParams(search);
  const plotted = ['branches', 'testbeds', 'benchmarks', 'measures'].every((name) => params.get(name));
  return {
    title: `📈 ${project.name}`,
    description: `View ${project.name} continuous benchmarking results and performance regressions`,
    image: plotted ? `/v0/projects/${project.slug}/perf/img${search}` : undefined,
  };
}

export function registerConsole(app: FastifyInstance, context: BenchContext): void {
  const assets = loadAssets();
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
  app.get<{ Params: { project: string } }>('/perf/:project', async (request, reply) => {
    const query = request.url.indexOf('?');
    sendShell(reply, await perfMeta(context, request.params.project, query < 0 ? '' : request.url.slice(query)));
  });
  for (const path of CONSOLE_PAGES) app.get(path, (_request, reply) => sendShell(reply, { title: 'Console' }));
}
