import { createOrganization } from '../src/index.js';
import { createProject } from '../src/storage/projects.js';
import type { Db, Project } from '../src/storage/types.js';

/** Organization `org` and, in it, a public project per slug given, for storage-level tests. */
export async function organizationWithProjects<const Slugs extends readonly string[]>(db: Db, ...slugs: Slugs) {
  const organization = await createOrganization(db, { name: 'Org', slug: 'org' });
  const projects: Project[] = [];
  for (const slug of slugs) {
    projects.push(
      await createProject(db, {
        organizationUuid: organization.uuid,
        name: slug.toUpperCase(),
        slug,
        url: null,
        visibility: 'public',
      }),
    );
  }
  return { organization, projects: projects as { [K in keyof Slugs]: Project } };
}
