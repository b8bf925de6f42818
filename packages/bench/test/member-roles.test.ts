import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { createOrganization, createUser, openBenchDatabase } from '../src/index.js';
import { createProject, memberRoles } from '../src/storage/projects.js';

describeEachDialect('bench member roles', ({ url }) => {
  it('reads a user’s organisation and project roles together, each only where held', async () => {
    const { db, close } = await openBenchDatabase(url());
    try {
      const user = async (slug: string) =>
        (await createUser(db, { name: slug, slug, email: `${slug}@nowhere.com` })).uuid;
      const [leader, maintainer, both, stranger] = [
        await user('leader'),
        await user('maintainer'),
        await user('both'),
        await user('stranger'),
      ];
      const organization = await createOrganization(db, { name: 'Org', slug: 'org', leader });
      await db
        .insertInto('organization_role')
        .values({ organization_uuid: organization.uuid, user_uuid: both, role: 'member', created: 1, modified: 1 })
        .execute();
      const project = await createProject(db, {
        organizationUuid: organization.uuid,
        name: 'P',
        slug: 'p',
        url: null,
        visibility: 'private',
        maintainer,
      });
      await db
        .insertInto('project_role')
        .values({ project_uuid: project.uuid, user_uuid: both, role: 'maintainer', created: 1 })
        .execute();
      const other = await createProject(db, {
        organizationUuid: organization.uuid,
        name: 'Q',
        slug: 'q',
        url: null,
        visibility: 'private',
      });
      const cases: [string, typeof project, { organization: string | undefined; project: string | undefined }][] = [
        [leader, project, { organization: 'leader', project: undefined }],
        [maintainer, project, { organization: undefined, project: 'maintainer' }],
        [both, project, { organization: 'member', project: 'maintainer' }],
        [both, other, { organization: 'member', project: undefined }],
        [stranger, project, { organization: undefined, project: undefined }],
      ];
      for (const [uuid, scope, expected] of cases) expect(await memberRoles(db, scope, uuid)).toEqual(expected);
    } finally {
      await close();
    }
  });
});
