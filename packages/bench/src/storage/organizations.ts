import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { BenchDatabase, OrganizationTable } from './schema.js';

export type Organization = Selectable<OrganizationTable>;

export async function createOrganization(
  db: Kysely<BenchDatabase>,
  input: { name: string; slug: string },
  now = Date.now(),
): Promise<Organization> {
  const row: Organization = { uuid: randomUUID(), name: input.name, slug: input.slug, created: now, modified: now };
  await db.insertInto('organization').values(row).execute();
  return row;
}

export async function findOrganization(
  db: Kysely<BenchDatabase>,
  slugOrUuid: string,
): Promise<Organization | undefined> {
  return db
    .selectFrom('organization')
    .selectAll()
    .where((eb) => eb.or([eb('slug', '=', slugOrUuid), eb('uuid', '=', slugOrUuid)]))
    .executeTakeFirst();
}
