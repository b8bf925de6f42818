import type { FastifyInstance } from 'fastify';
import { organizationAllows, type Permission } from '../auth/permissions.js';
import { findProject } from '../storage/projects.js';
import { parseResourceId } from '../wire/slug.js';
import { actorAllows, visibleOrganization } from './access.js';
import { actorOf, requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { notFound } from './problems.js';
import { permissionParams } from './schemas.js';

/**
 * `GET …/allowed/{permission}` → `{allowed}` for the signed-in caller. An organisation or private project
 * the caller cannot see is a 404 (Bencher answers `false`, which tells strangers it exists).
 */
export function registerAllowedRoutes(app: FastifyInstance, context: BenchContext): void {
  app.get<{ Params: { organization: string; permission: Permission } }>(
    '/v0/organizations/:organization/allowed/:permission',
    { schema: { params: permissionParams('organization') } },
    async (request) => {
      const user = await requireUser(context, request);
      const { role } = await visibleOrganization(context, user, request.params.organization);
      return { allowed: organizationAllows(user.admin === 1, role, request.params.permission) };
    },
  );

  app.get<{ Params: { project: string; permission: Permission } }>(
    '/v0/projects/:project/allowed/:permission',
    { schema: { params: permissionParams('project') } },
    async (request) => {
      await requireUser(context, request);
      const actor = await actorOf(context, request);
      const project = await findProject(context.database.db, parseResourceId(request.params.project));
      if (!project || !(await actorAllows(context, actor, project, 'view'))) {
        throw notFound('Project', request.params.project);
      }
      return { allowed: await actorAllows(context, actor, project, request.params.permission) };
    },
  );
}
