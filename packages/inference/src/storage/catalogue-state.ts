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

export interface ProcessLoad {
  process: string;
  version: number;
  error: string | null;
  seen: number;
}

/** What a gateway process did with a published version (at start: the version it found). */
export async function recordProcessLoad(db: Kysely<InferenceDatabase>, load: ProcessLoad): Promise<void> {
  await db
    .insertInto('catalogue_load')
    .values(load)
    .onConflict((oc) =>
      oc.column('process').doUpdateSet((eb) => ({
        version: eb.ref('excluded.version'),
        error: eb.ref('excluded.error'),
        seen: eb.ref('excluded.seen'),
      })),
    )
    .execute();
}

/** Marks the process as still running. */
export async function touchProcessLoad(db: Kysely<InferenceDatabase>, process: string, now: number): Promise<void> {
  await db.updateTable('catalogue_load').set({ seen: now }).where('process', '=', process).execute();
}

export async function forgetProcessLoad(db: Kysely<InferenceDatabase>, process: string): Promise<void> {
  await db.deleteFrom('catalogue_load').where('process', '=', process).execute();
}

/** The processes seen since `since`, by name. */
export const processLoads = (db: Kysely<InferenceDatabase>, since: number): Promise<ProcessLoad[]> =>
  db.selectFrom('catalogue_load').selectAll().where('seen', '>=', since).orderBy('process').execute();
