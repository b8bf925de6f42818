import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, ProjectTable } from './schema.js';

export type Project = Selectable<ProjectTable>;

export async function createProject(db: Kysely<InferenceDatabase>, name: string, now = Date.now()): Promise<Project> {
  const project: Project = { id: randomUUID(), name, created: now };
  await db.insertInto('project').values(project).execute();
  return project;
}

export async function listProjects(db: Kysely<InferenceDatabase>): Promise<Project[]> {
  return db.selectFrom('project').selectAll().orderBy('name').execute();
}
