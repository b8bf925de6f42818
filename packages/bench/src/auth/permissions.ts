/** Bencher's RBAC (§6.6): which project and organisation roles grant which permission. */

export type Permission = 'view' | 'create' | 'edit' | 'delete' | 'manage';
export type ProjectRole = 'maintainer' | 'developer' | 'reporter' | 'viewer';
export type OrganizationRole = 'leader' | 'member';

const PROJECT_GRANTS: Record<ProjectRole, ReadonlySet<Permission>> = {
  viewer: new Set(['view']),
  reporter: new Set(['view', 'create']),
  developer: new Set(['view', 'create', 'edit', 'delete']),
  maintainer: new Set(['view', 'create', 'edit', 'delete', 'manage']),
};

const ORGANIZATION_GRANTS: Record<OrganizationRole, ReadonlySet<Permission>> = {
  member: new Set(['view']),
  leader: new Set(['view', 'create', 'edit', 'delete', 'manage']),
};

export interface ProjectStanding {
  admin: boolean;
  organizationRole: OrganizationRole | undefined;
  projectRole: ProjectRole | undefined;
}

/** Server admins and organisation leaders hold every project permission; org members alone hold none. */
export function projectAllows(standing: ProjectStanding, permission: Permission): boolean {
  if (standing.admin || standing.organizationRole === 'leader') return true;
  return standing.projectRole !== undefined && PROJECT_GRANTS[standing.projectRole].has(permission);
}

export function organizationAllows(
  admin: boolean,
  role: OrganizationRole | undefined,
  permission: Permission,
): boolean {
  return admin || (role !== undefined && ORGANIZATION_GRANTS[role].has(permission));
}
