import { randomUUID } from 'node:crypto';
import type { OrganizationRole } from '../auth/permissions.js';
import type { Page } from '../wire/pagination.js';
import { suffixedSlug } from '../wire/slug.js';
import { type Listed, paged, searchAny } from './list-query.js';
import type { Db, Organization } from './types.js';

async function freeOrganizationSlug(db: Db, slug: string): Promise<string> {
  const taken = await db.selectFrom('organization').select('uuid').where('slug', '=', slug).executeTakeFirst();
  return taken ? suffixedSlug(slug) : slug;
}

export async function createOrganization(
  db: Db,
  input: { name: string; slug: string; leader?: string },
  now = Date.now(),
): Promise<Organization> {
  const row: Organization = {
    uuid: randomUUID(),
    name: input.name,
    slug: await freeOrganizationSlug(db, input.slug),
    created: now,
    modified: now,
    deleted: null,
  };
  await db.insertInto('organization').values(row).execute();
  if (input.leader) {
    await db
      .insertInto('organization_role')
      .values({ organization_uuid: row.uuid, user_uuid: input.leader, role: 'leader', created: now })
      .execute();
  }
  return row;
}

/** A live organisation by UUID or slug. */
export const findOrganization = (db: Db, id: { column: string; value: string }): Promise<Organization | undefined> =>
  db
    .selectFrom('organization')
    .selectAll()
    .where(id.column === 'uuid' ? 'uuid' : 'slug', '=', id.value)
    .where('deleted', 'is', null)
    .executeTakeFirst();

export async function organizationRole(
  db: Db,
  organizationUuid: string,
  userUuid: string,
): Promise<OrganizationRole | undefined> {
  const row = await db
    .selectFrom('organization_role')
    .select('role')
    .where('organization_uuid', '=', organizationUuid)
    .where('user_uuid', '=', userUuid)
    .executeTakeFirst();
  return row?.role;
}

/** Organisations the user belongs to (every one for an admin, when `member` is undefined). */
export async function listOrganizations(
  db: Db,
  filter: { member: string | undefined; name?: string | undefined; search?: string | undefined },
  page: Page,
): Promise<Listed<Organization>> {
  let query = db.selectFrom('organization').where('deleted', 'is', null);
  if (filter.member !== undefined) {
    const member = filter.member;
    query = query.where('uuid', 'in', (eb) =>
      eb.selectFrom('organization_role').select('organization_uuid').where('user_uuid', '=', member),
    );
  }
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) query = query.where(searchAny(['name', 'slug', 'uuid'], filter.search));
  return paged(query, (q) => q.selectAll().orderBy('name', page.direction ?? 'asc'), page);
}

export async function updateOrganization(
  db: Db,
  uuid: string,
  changes: { name?: string | undefined; slug?: string | undefined },
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('organization')
    .set({ ...changes, modified: now })
    .where('uuid', '=', uuid)
    .execute();
}

/** Soft delete, as Bencher does: the row is renamed out of the way and hidden, with its projects. */
export async function deleteOrganization(db: Db, uuid: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('organization')
    .set({ deleted: now, name: `Deleted ${uuid}`, slug: `deleted-${uuid}` })
    .where('uuid', '=', uuid)
    .execute();
  const projects = await db.selectFrom('project').select('uuid').where('organization_uuid', '=', uuid).execute();
  for (const { uuid: project } of projects) await deleteProjectRow(db, project, now);
}

export async function deleteProjectRow(db: Db, uuid: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('project')
    .set({ deleted: now, name: `Deleted ${uuid}`, slug: `deleted-${uuid}` })
    .where('uuid', '=', uuid)
    .execute();
}

/** An organisation nobody belongs to yet (made by an anonymous run) is unclaimed. */
export async function isClaimed(db: Db, organizationUuid: string): Promise<boolean> {
  const member = await db
    .selectFrom('organization_role')
    .select('user_uuid')
    .where('organization_uuid', '=', organizationUuid)
    .executeTakeFirst();
  return member !== undefined;
}

export async function claimOrganization(db: Db, organizationUuid: string, userUuid: string, now = Date.now()) {
  await db
    .insertInto('organization_role')
    .values({ organization_uuid: organizationUuid, user_uuid: userUuid, role: 'leader', created: now })
    .execute();
}
