import type { FastifyInstance } from 'fastify';

const wantsHtml = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '');

/**
 * `GET /` answers 200 with JSON `null`, as Bencher's API server does. When the console serves its home page at
 * `/` on the same server, a browser (asking for HTML) gets the page and every other client the API's answer.
 * Registered after the console.
 */
export function registerRootRoute(app: FastifyInstance): void {
  if (!app.hasRoute({ method: 'GET', url: '/' })) {
    app.get('/', (_request, reply) => {
      reply.type('application/json').send('null');
    });
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== '/' || wantsHtml(request.headers.accept)) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    return reply.type('application/json').send('null');
  });
}
