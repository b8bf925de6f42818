import type { FastifyInstance } from 'fastify';

/** The Bencher API version this server speaks; the CLI compares it with its own. */
export const BENCHER_API_VERSION = '0.6.12';

const versionBody = JSON.stringify({ version: BENCHER_API_VERSION });

export function registerServerRoutes(app: FastifyInstance): void {
  app.get('/v0/server/version', (_request, reply) => {
    reply.type('application/json').send(versionBody);
  });
}
