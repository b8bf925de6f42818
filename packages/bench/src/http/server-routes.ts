import type { FastifyInstance } from 'fastify';
import { benchDatabaseUrl } from '../admin.js';
import { listUsers, type UserListQuery } from '../storage/users.js';
import { jsonUser } from '../wire/json.js';
import { pageOf } from '../wire/pagination.js';
import { jsonServerConfig } from '../wire/server-config.js';
import { requireAdmin } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { listQuery } from './schemas.js';

/** The Bencher API version this server speaks; the CLI compares it with its own. */
export const BENCHER_API_VERSION = '0.6.12';

const versionBody = JSON.stringify({ version: BENCHER_API_VERSION });

export function registerServerRoutes(app: FastifyInstance, context: BenchContext): void {
  app.get('/v0/server/version', (_request, reply) => {
    reply.type('application/json').send(versionBody);
  });

  app.get('/v0/server/config/console', (_request, reply) => {
    reply.type('application/json').send(JSON.stringify({ url: context.consoleUrl() }));
  });

  const databaseUrl = benchDatabaseUrl(context.config, context.dataDir);
  app.get('/v0/server/config', async (request) => {
    await requireAdmin(context, request);
    return jsonServerConfig(context.config, context.consoleUrl(), databaseUrl, request.log.level);
  });

  app.get<{ Querystring: UserListQuery }>(
    '/v0/users',
    { schema: { querystring: listQuery(['name']) } },
    async (request, reply) => {
      await requireAdmin(context, request);
      const listed = await listUsers(context.database.db, request.query, pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonUser), listed.total);
    },
  );
}
