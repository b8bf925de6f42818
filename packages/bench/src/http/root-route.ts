import type { FastifyInstance } from 'fastify';

const wantsHtml = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '');

/** A bar chart on the console's accent colour: the icon of every page, with no file to download. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f5fbf"/><path fill="#fff" d="M7 22h4v4H7zm7-7h4v11h-4zm7-9h4v20h-4z"/></svg>`;

/**
 * `GET /` answers 200 with JSON `null`, as Bencher's API server does, except to a browser (asking for HTML), which
 * the console's logo leads there: it is sent on to `/console`. `/favicon.ico` is an inline SVG icon.
 */
export function registerRootRoute(app: FastifyInstance): void {
  app.get('/', (request, reply) => {
    if (wantsHtml(request.headers.accept)) return reply.redirect('/console', 302);
    return reply.type('application/json').send('null');
  });
  app.get('/favicon.ico', (_request, reply) => {
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON);
  });
}
