import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { OrganizationRole } from '../auth/permissions.js';
import type { Page } from '../wire/pagination.js';
import { suffixedSlug } from '../wire/slug.js';
import { type Listed, paged, searchAny } from './list-query.js';
import { addMember, lockOrganization } from './members.js';
import type { BenchDatabase } from './schema.js';
import type { Db, Organization } from './types.js';

/** Bencher's `claimed`: when the first member of the organisation joined, null while it has none. */
export const claimedColumn = (organizationUuid: 'organization.uuid' | 'project.organization_uuid') =>
  sql<number | null>`(
    select min(organization_role.created) from organization_role
    where organization_role.organization_uuid = ${sql.ref(organizationUuid)}
  )`.as('claimed');

async function freeOrganizationSlug(db: Db, slug: string): Promise<string> {
  const taken = await db.selectFrom('organization').select('uuid').where('slug', '=', slug).executeTakeFirst();
  return taken ? suffixedSlug(slug) : slug;
}

export async function createOrganization(
  db: Db,
  input: { name: string; slug: string; leader?: string },
  now = Date.now(),
): Promise<Organization> {
  const row = {
    uuid: randomUUID(),
    name: input.name,
    slug: await freeOrganizationSlug(db, input.slug),
    created: now,
    modified: now,
    deleted: null,
  };
  await db.insertInto('organization').values(row).execute();
  if (input.leader) await addMember(db, row.uuid, input.leader, 'leader', now);
  return { ...row, claimed: input.leader ? now : null };
}

/** A live organisation by UUID or slug. */
export const findOrganization = (db: Db, id: { column: string; value: string }): Promise<Organization | undefined> =>
  db
    .selectFrom('organization')
    .selectAll()
    .select(claimedColumn('organization.uuid'))
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
  return paged(
    query,
    (q) =>
      q
        .selectAll()
        .select(claimedColumn('organization.uuid'))
        .orderBy('name', page.direction ?? 'asc'),
    page,
  );
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

/**
 * Makes the user the leader of an organisation nobody belongs to yet (made by an anonymous run); of two
 * claims racing, only the first lands. False if already claimed.
 */
export function claimOrganization(
  db: Kysely<BenchDatabase>,
  organizationUuid: string,
  userUuid: string,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationUuid);
    return insertFirstLeader(trx, organizationUuid, userUuid, now);
  });
}

async function insertFirstLeader(db: Db, organizationUuid: string, userUuid: string, now: number): Promise<boolean> {
  const inserted = await db
    .insertInto('organization_role')
    .columns(['organization_uuid', 'user_uuid', 'role', 'created', 'modified'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(organizationUuid).as('organization_uuid'),
          eb.val(userUuid).as('user_uuid'),
          eb.val('leader').as('role'),
          eb.cast(eb.val(now), 'bigint').as('created'),
          eb.cast(eb.val(now), 'bigint').as('modified'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('organization_role').select('user_uuid').where('organization_uuid', '=', organizationUuid),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
