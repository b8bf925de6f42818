import { type Kysely, sql } from 'kysely';
import type { CatalogueFingerprint } from '../catalogue-diff.js';
import type { InferenceDatabase } from './schema.js';

const ROW = 1;

/** The published catalogue version; 0 before the first `atrium inference reload`. */
export async function catalogueVersion(db: Kysely<InferenceDatabase>): Promise<number> {
  const row = await db.selectFrom('catalogue_state').select('version').where('id', '=', ROW).executeTakeFirst();
  return row?.version ?? 0;
}

/** What a gateway loaded (at start or on a reload), so that the next reload's diff is against it. */
export async function recordLoadedCatalogue(
  db: Kysely<InferenceDatabase>,
  fingerprint: CatalogueFingerprint,
  now: number,
): Promise<void> {
  await db
    .insertInto('catalogue_state')
    .values({ id: ROW, version: 0, fingerprint: JSON.stringify(fingerprint), updated: now })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        updated: eb.ref('excluded.updated'),
      })),
    )
    .execute();
}

/**
 * Raises the version every gateway polls; answers it and the catalogue recorded before. Two statements, not a
 * transaction: SQLite refuses a read transaction's upgrade to a write when another process wrote meanwhile, and
 * two operators publishing at once only blur the diff each is shown.
 */
export async function publishCatalogue(
  db: Kysely<InferenceDatabase>,
  fingerprint: CatalogueFingerprint,
  now: number,
): Promise<{ version: number; previous: CatalogueFingerprint }> {
  const before = await db.selectFrom('catalogue_state').select('fingerprint').where('id', '=', ROW).executeTakeFirst();
  const { version } = await db
    .insertInto('catalogue_state')
    .values({ id: ROW, version: 1, fingerprint: JSON.stringify(fingerprint), updated: now })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        version: sql<number>`catalogue_state.version + 1`,
        fingerprint: eb.ref('excluded.fingerprint'),
        updated: eb.ref('excluded.updated'),
      })),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return { version, previous: before ? (JSON.parse(before.fingerprint) as CatalogueFingerprint) : {} };
}
