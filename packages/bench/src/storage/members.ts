import { dialectOf } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { OrganizationRole } from '../auth/permissions.js';
import type { Page } from '../wire/pagination.js';
import type { NameId } from '../wire/slug.js';
import { type Listed, paged, searchAny } from './list-query.js';
import type { Db } from './types.js';

/** A user in an organisation: `created`/`modified` are those of the membership. */
export interface Member {
  uuid: string;
  name: string;
  slug: string;
  email: string;
  role: OrganizationRole;
  created: number;
  modified: number;
}

const memberships = (db: Db, organizationUuid: string) =>
  db
    .selectFrom('organization_role')
    .innerJoin('user', 'user.uuid', 'organization_role.user_uuid')
    .where('organization_role.organization_uuid', '=', organizationUuid);

const MEMBER_COLUMNS = [
  'user.uuid',
  'user.name',
  'user.slug',
  'user.email',
  'organization_role.role',
  'organization_role.created',
  'organization_role.modified',
] as const;

/** Members by user name (then slug), as Bencher sorts them. */
export async function listMembers(
  db: Db,
  organizationUuid: string,
  filter: { name?: string | undefined; search?: string | undefined },
  page: Page,
): Promise<Listed<Member>> {
  let query = memberships(db, organizationUuid);
  if (filter.name !== undefined) query = query.where('user.name', '=', filter.name);
  if (filter.search !== undefined)
    query = query.where(searchAny(['user.name', 'user.slug', 'user.uuid'], filter.search));
  const direction = page.direction ?? 'asc';
  return paged(
    query,
    (q) => q.select(MEMBER_COLUMNS).orderBy('user.name', direction).orderBy('user.slug', direction),
    page,
  );
}

/** A member by user UUID or slug. */
export const findMember = (db: Db, organizationUuid: string, user: NameId): Promise<Member | undefined> =>
  memberships(db, organizationUuid)
    .select(MEMBER_COLUMNS)
    .where(user.column === 'uuid' ? 'user.uuid' : 'user.slug', '=', user.value)
    .executeTakeFirst();

/**
 * Serialises membership changes of one organisation until the transaction ends: PostgreSQL locks the
 * organisation's row; SQLite runs one writing transaction at a time already.
 */
export async function lockOrganization(trx: Db, organizationUuid: string): Promise<void> {
  if (dialectOf(trx as Kysely<unknown>) !== 'postgres') return;
  await trx.selectFrom('organization').select('uuid').where('uuid', '=', organizationUuid).forUpdate().execute();
}

export async function countLeaders(db: Db, organizationUuid: string): Promise<number> {
  const row = await memberships(db, organizationUuid)
    .where('organization_role.role', '=', 'leader')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function addMember(
  db: Db,
  organizationUuid: string,
  userUuid: string,
  role: OrganizationRole,
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('organization_role')
    .values({ organization_uuid: organizationUuid, user_uuid: userUuid, role, created: now, modified: now })
    .execute();
}

export async function updateMemberRole(
  db: Db,
  organizationUuid: string,
  userUuid: string,
  role: OrganizationRole,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('organization_role')
    .set({ role, modified: now })
    .where('organization_uuid', '=', organizationUuid)
    .where('user_uuid', '=', userUuid)
    .execute();
}

export async function removeMember(db: Db, organizationUuid: string, userUuid: string): Promise<void> {
  await db
    .deleteFrom('organization_role')
    .where('organization_uuid', '=', organizationUuid)
    .where('user_uuid', '=', userUuid)
    .execute();
}
