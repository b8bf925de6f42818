import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, ProjectGrantTable, ProjectMemberTable, ProjectTable } from './schema.js';

export type Project = Selectable<ProjectTable>;
export type Role = ProjectMemberTable['role'];
export type Grant = Selectable<ProjectGrantTable>;

export const ROLES: readonly Role[] = ['pi', 'deputy', 'member'];

export async function createProject(
  db: Kysely<InferenceDatabase>,
  name: string,
  organisation: string | null = null,
  now = Date.now(),
): Promise<Project> {
  const project: Project = { id: randomUUID(), name, organisation, created: now };
  await db.insertInto('project').values(project).execute();
  return project;
}

export const listProjects = (db: Kysely<InferenceDatabase>): Promise<Project[]> =>
  db.selectFrom('project').selectAll().orderBy('name').execute();

export const findProject = (db: Kysely<InferenceDatabase>, id: string): Promise<Project | undefined> =>
  db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst();

export const findProjectByName = (db: Kysely<InferenceDatabase>, name: string): Promise<Project | undefined> =>
  db.selectFrom('project').selectAll().where('name', '=', name).executeTakeFirst();

/** Adds a member or changes the role of an existing one. */
export async function setMember(db: Kysely<InferenceDatabase>, projectId: string, accountId: string, role: Role) {
  await db
    .insertInto('project_member')
    .values({ project_id: projectId, account_id: accountId, role })
    .onConflict((oc) => oc.columns(['project_id', 'account_id']).doUpdateSet({ role }))
    .execute();
}

export async function roleIn(
  db: Kysely<InferenceDatabase>,
  projectId: string,
  accountId: string,
): Promise<Role | undefined> {
  const row = await db
    .selectFrom('project_member')
    .select('role')
    .where('project_id', '=', projectId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.role;
}

/** The projects an account belongs to, with its role in each. */
export const projectsOf = (db: Kysely<InferenceDatabase>, accountId: string) =>
  db
    .selectFrom('project_member')
    .innerJoin('project', 'project.id', 'project_member.project_id')
    .select(['project.id', 'project.name', 'project.organisation', 'project.created', 'project_member.role'])
    .where('project_member.account_id', '=', accountId)
    .orderBy('project.name')
    .execute();

export async function addGrant(db: Kysely<InferenceDatabase>, projectId: string, starts: number, ends: number) {
  return db
    .insertInto('project_grant')
    .values({ project_id: projectId, starts, ends })
    .returning(['id', 'project_id', 'starts', 'ends'])
    .executeTakeFirstOrThrow();
}

export const grantsOf = (db: Kysely<InferenceDatabase>, projectId: string): Promise<Grant[]> =>
  db.selectFrom('project_grant').selectAll().where('project_id', '=', projectId).orderBy('starts').execute();

export async function hasActiveGrant(db: Kysely<InferenceDatabase>, projectId: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('project_grant')
    .select('id')
    .where('project_id', '=', projectId)
    .where('starts', '<=', now)
    .where('ends', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** A project's grants seen from one instant: the end of the active one, else when the last one ended (null: none). */
export interface GrantCoverage {
  activeUntil: number | null;
  lastEnded: number | null;
}

/** The latest end of the project's grants that have started by `now`: active until then, or ended then. */
export async function grantCoverage(
  db: Kysely<InferenceDatabase>,
  projectId: string,
  now: number,
): Promise<GrantCoverage> {
  const row = await db
    .selectFrom('project_grant')
    .select((eb) => eb.fn.max('ends').as('ends'))
    .where('project_id', '=', projectId)
    .where('starts', '<=', now)
    .executeTakeFirst();
  const ends = row?.ends === null || row?.ends === undefined ? null : Number(row.ends);
  return ends !== null && ends > now ? { activeUntil: ends, lastEnded: null } : { activeUntil: null, lastEnded: ends };
}

/** Sets the node hours a project has on a cluster. */
export async function setAllocation(db: Kysely<InferenceDatabase>, projectId: string, cluster: string, hours: number) {
  await db
    .insertInto('allocation')
    .values({ project_id: projectId, cluster, node_hours: hours })
    .onConflict((oc) => oc.columns(['project_id', 'cluster']).doUpdateSet({ node_hours: hours }))
    .execute();
}

export const allocationsOf = (db: Kysely<InferenceDatabase>, projectId: string) =>
  db
    .selectFrom('allocation')
    .select(['cluster', 'node_hours'])
    .where('project_id', '=', projectId)
    .orderBy('cluster')
    .execute();
