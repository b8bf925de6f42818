/** Bencher's RBAC (§6.6): which project and organisation roles grant which permission. */

export const PERMISSIONS = [
  'view',
  'create',
  'edit',
  'delete',
  'manage',
  'view_role',
  'create_role',
  'edit_role',
  'delete_role',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type ProjectRole = 'maintainer' | 'developer' | 'reporter' | 'viewer';
export const ORGANIZATION_ROLES = ['leader', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

const VIEWER: readonly Permission[] = ['view', 'view_role'];
const DEVELOPER: readonly Permission[] = [...VIEWER, 'create', 'edit', 'delete'];

const PROJECT_GRANTS: Record<ProjectRole, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  reporter: new Set(['view', 'create']),
  developer: new Set(DEVELOPER),
  maintainer: new Set(PERMISSIONS),
};

const ORGANIZATION_GRANTS: Record<OrganizationRole, ReadonlySet<Permission>> = {
  member: new Set(VIEWER),
  leader: new Set(PERMISSIONS),
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
