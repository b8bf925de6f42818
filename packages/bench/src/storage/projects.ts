import { randomUUID } from 'node:crypto';
import type { OrganizationRole, ProjectRole } from '../auth/permissions.js';
import { DEFAULT_BRANCH, DEFAULT_TESTBED } from '../domain/project-defaults.js';
import type { Page } from '../wire/pagination.js';
import { parseNameId, suffixedSlug } from '../wire/slug.js';
import { createBranch } from './branches.js';
import { insertDefaultThresholds } from './default-thresholds.js';
import { insertDimension } from './dimensions.js';
import { type Listed, paged, searchAny } from './list-query.js';
import { claimedColumn } from './organizations.js';
import type { Branch, Db, Dimension, Project } from './types.js';

export async function createProject(
  db: Db,
  input: {
    organizationUuid: string;
    name: string;
    slug: string;
    url: string | null;
    visibility: Project['visibility'];
    maintainer?: string | undefined;
  },
  now = Date.now(),
): Promise<Project> {
  const taken = await db.selectFrom('project').select('uuid').where('slug', '=', input.slug).executeTakeFirst();
  const row = {
    uuid: randomUUID(),
    organization_uuid: input.organizationUuid,
    name: input.name,
    slug: taken ? suffixedSlug(input.slug) : input.slug,
    url: input.url,
    visibility: input.visibility,
    created: now,
    modified: now,
    deleted: null,
  };
  await db.insertInto('project').values(row).execute();
  if (input.maintainer) {
    await db
      .insertInto('project_role')
      .values({ project_uuid: row.uuid, user_uuid: input.maintainer, role: 'maintainer', created: now })
      .execute();
  }
  await createProjectDefaults(db, row.uuid, now);
  return selectProjects(db).where('uuid', '=', row.uuid).executeTakeFirstOrThrow();
}

/** The seed's defaults of a new project: branch, testbed, two measures, a threshold on each (see project-defaults). */
async function createProjectDefaults(db: Db, projectUuid: string, now: number): Promise<void> {
  const branch: Branch = await createBranch(db, { projectUuid, ...DEFAULT_BRANCH }, parseNameId, now);
  const testbed = await insertDimension<Dimension>(db, 'testbed', { projectUuid, ...DEFAULT_TESTBED }, now);
  await insertDefaultThresholds(db, { projectUuid, branchUuid: branch.uuid, testbedUuid: testbed.uuid }, now);
}

const selectProjects = (db: Db) =>
  db.selectFrom('project').selectAll().select(claimedColumn('project.organization_uuid'));

export const findProject = (db: Db, id: { column: string; value: string }): Promise<Project | undefined> =>
  selectProjects(db)
    .where(id.column === 'uuid' ? 'uuid' : 'slug', '=', id.value)
    .where('deleted', 'is', null)
    .executeTakeFirst();

export const projectNameTaken = async (db: Db, organizationUuid: string, name: string): Promise<boolean> =>
  (await db
    .selectFrom('project')
    .select('uuid')
    .where('organization_uuid', '=', organizationUuid)
    .where('name', '=', name)
    .where('deleted', 'is', null)
    .executeTakeFirst()) !== undefined;

/** The user's roles in the project's organisation and in the project, in one statement. */
export async function memberRoles(
  db: Db,
  project: Pick<Project, 'uuid' | 'organization_uuid'>,
  userUuid: string,
): Promise<{ organization: OrganizationRole | undefined; project: ProjectRole | undefined }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('organization_role')
        .select('role')
        .where('organization_uuid', '=', project.organization_uuid)
        .where('user_uuid', '=', userUuid)
        .as('organization'),
      eb
        .selectFrom('project_role')
        .select('role')
        .where('project_uuid', '=', project.uuid)
        .where('user_uuid', '=', userUuid)
        .as('project'),
    ])
    .executeTakeFirstOrThrow();
  return { organization: row.organization ?? undefined, project: row.project ?? undefined };
}

export interface ProjectFilter {
  organization?: string | undefined;
  /** Which projects the caller may see: all (admin), public ones plus those of a user, or one project (key). */
  visibleTo: { kind: 'all' } | { kind: 'user'; uuid: string | undefined } | { kind: 'project'; uuid: string };
  name?: string | undefined;
  search?: string | undefined;
}

export async function listProjects(db: Db, filter: ProjectFilter, page: Page): Promise<Listed<Project>> {
  let query = db.selectFrom('project').where('deleted', 'is', null);
  if (filter.organization !== undefined) query = query.where('organization_uuid', '=', filter.organization);
  const visible = filter.visibleTo;
  if (visible.kind === 'project') query = query.where('uuid', '=', visible.uuid);
  if (visible.kind === 'user') {
    const user = visible.uuid;
    query = query.where((eb) =>
      user === undefined
        ? eb('visibility', '=', 'public')
        : eb.or([
            eb('visibility', '=', 'public'),
            eb('uuid', 'in', eb.selectFrom('project_role').select('project_uuid').where('user_uuid', '=', user)),
            eb(
              'organization_uuid',
              'in',
              eb
                .selectFrom('organization_role')
                .select('organization_uuid')
                .where('user_uuid', '=', user)
                .where('role', '=', 'leader'),
            ),
          ]),
    );
  }
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) query = query.where(searchAny(['name', 'slug', 'uuid'], filter.search));
  return paged(
    query,
    (q) =>
      q
        .selectAll()
        .select(claimedColumn('project.organization_uuid'))
        .orderBy('name', page.direction ?? 'asc'),
    page,
  );
}

export async function updateProject(
  db: Db,
  uuid: string,
  changes: Partial<Pick<Project, 'name' | 'slug' | 'url' | 'visibility'>>,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('project')
    .set({ ...changes, modified: now })
    .where('uuid', '=', uuid)
    .execute();
}
