import { describe, expect, it } from 'vitest';
import {
  type OrganizationRole,
  organizationAllows,
  PERMISSIONS,
  type Permission,
  type ProjectRole,
  projectAllows,
} from '../src/auth/permissions.js';

const ROLES = ['view', 'view_role'] as const;
const WRITES = ['create', 'edit', 'delete'] as const;
const MANAGEMENT = ['manage', 'create_role', 'edit_role', 'delete_role'] as const;

describe("Bencher's RBAC", () => {
  it.each<[OrganizationRole | undefined, boolean, readonly Permission[]]>([
    ['leader', false, PERMISSIONS],
    ['member', false, ROLES],
    [undefined, false, []],
    [undefined, true, PERMISSIONS],
    ['member', true, PERMISSIONS],
  ])('organisation role %s (admin %s) grants exactly %j', (role, admin, granted) => {
    expect(PERMISSIONS.filter((p) => organizationAllows(admin, role, p))).toEqual(granted);
  });

  it.each<[ProjectRole | undefined, OrganizationRole | undefined, readonly Permission[]]>([
    ['viewer', undefined, ROLES],
    ['reporter', undefined, ['view', 'create']],
    ['developer', undefined, PERMISSIONS.filter((p) => [...ROLES, ...WRITES].includes(p as never))],
    ['maintainer', undefined, PERMISSIONS],
    [undefined, 'leader', PERMISSIONS],
    [undefined, 'member', []],
    ['viewer', 'member', ROLES],
  ])('project role %s with organisation role %s grants exactly %j', (projectRole, organizationRole, granted) => {
    expect(PERMISSIONS.filter((p) => projectAllows({ admin: false, organizationRole, projectRole }, p))).toEqual(
      granted,
    );
  });

  it('lets server admins do anything to any project', () => {
    for (const p of [...ROLES, ...WRITES, ...MANAGEMENT]) {
      expect(projectAllows({ admin: true, organizationRole: undefined, projectRole: undefined }, p)).toBe(true);
    }
  });
});
