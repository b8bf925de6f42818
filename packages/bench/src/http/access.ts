import { HttpError } from '@atrium/core';
import type { FastifyRequest } from 'fastify';
import { type OrganizationRole, organizationAllows, type Permission, projectAllows } from '../auth/permissions.js';
import { findOrganization, organizationRole } from '../storage/organizations.js';
import { findProject, memberRoles } from '../storage/projects.js';
import type { Organization, Project, User } from '../storage/types.js';
import { findUser } from '../storage/users.js';
import { parseResourceId } from '../wire/slug.js';
import { type Actor, actorOf } from './auth.js';
import type { BenchContext } from './context.js';
import { notFound } from './problems.js';

/** What a project key may do: read, report and adjust, never delete or manage. */
const PROJECT_KEY_PERMISSIONS: ReadonlySet<Permission> = new Set(['view', 'create', 'edit']);

export async function actorAllows(
  context: BenchContext,
  actor: Actor,
  project: Project,
  permission: Permission,
): Promise<boolean> {
  if (permission === 'view' && project.visibility === 'public') return true;
  if (actor.kind === 'anonymous') return false;
  if (actor.kind === 'project_key')
    return actor.projectUuid === project.uuid && PROJECT_KEY_PERMISSIONS.has(permission);
  const { db } = context.database;
  const roles = await memberRoles(db, project, actor.user.uuid);
  return projectAllows(
    { admin: actor.user.admin === 1, organizationRole: roles.organization, projectRole: roles.project },
    permission,
  );
}

/**
 * The project named in the path, if the caller holds `permission` on it. A private project the
 * caller cannot see answers exactly like a missing one (404); a public one answers 401 or 403.
 */
export async function projectFor(
  context: BenchContext,
  request: FastifyRequest,
  projectId: string,
  permission: Permission,
  options: { userOnly?: boolean } = {},
): Promise<{ project: Project; actor: Actor }> {
  const [actor, project] = await Promise.all([
    actorOf(context, request),
    findProject(context.database.db, parseResourceId(projectId)),
  ]);
  if (!project) throw notFound('Project', projectId);
  if (options.userOnly && actor.kind === 'project_key' && project.visibility === 'public') {
    throw new HttpError(403, 'forbidden', 'Project keys cannot be used on this endpoint.');
  }
  const allowed =
    (!options.userOnly || actor.kind !== 'project_key') && (await actorAllows(context, actor, project, permission));
  if (allowed) return { project, actor };
  if (project.visibility === 'private' && !(await actorAllows(context, actor, project, 'view'))) {
    throw notFound('Project', projectId);
  }
  if (actor.kind === 'anonymous') {
    throw new HttpError(401, 'unauthorized', `Authentication required to ${permission} Project (${projectId}).`);
  }
  throw new HttpError(
    403,
    'forbidden',
    `Permission to ${permission} Project (${projectId}) access denied. This Project is public but you do not have the required permission.`,
  );
}

export const actorUser = (actor: Actor): User | null => (actor.kind === 'user' ? actor.user : null);

/** The organisation named in the path and the user's role in it; a 404 unless the user may view it. */
export async function visibleOrganization(
  context: BenchContext,
  user: User,
  id: string,
): Promise<{ organization: Organization; role: OrganizationRole | undefined }> {
  const { db } = context.database;
  const organization = await findOrganization(db, parseResourceId(id));
  if (!organization) throw notFound('Organization', id);
  const role = await organizationRole(db, organization.uuid, user.uuid);
  if (!organizationAllows(user.admin === 1, role, 'view')) throw notFound('Organization', id);
  return { organization, role };
}

/**
 * The organisation named in the path, if the user holds `permission` on it. Strangers get a 404 as
 * for a missing one; members lacking the permission get a 403.
 */
export async function organizationFor(
  context: BenchContext,
  user: User,
  id: string,
  permission: Permission,
): Promise<Organization> {
  const { organization, role } = await visibleOrganization(context, user, id);
  if (organizationAllows(user.admin === 1, role, permission)) return organization;
  throw new HttpError(403, 'forbidden', `Permission to ${permission} Organization (${id.slice(0, 300)}) denied.`);
}

/** A user path the caller may act on: themselves, or anyone for a server admin; 404 otherwise. */
export async function userFor(context: BenchContext, caller: User, id: string): Promise<User> {
  const user = await findUser(context.database.db, parseResourceId(id));
  if (!user || (user.uuid !== caller.uuid && !caller.admin)) throw notFound('User', id);
  return user;
}
