import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable, InferenceDatabase } from './schema.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** Inserts a key; a clash on the case-folded alias within the resource is reported as `false`. */
export async function insertApiKey(db: Kysely<InferenceDatabase>, row: ApiKeyRow): Promise<boolean> {
  const result = await db
    .insertInto('api_key')
    .values(row)
    .onConflict((oc) => oc.columns(['resource_id', 'alias_key']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export const findApiKeyByHash = (db: Kysely<InferenceDatabase>, secretHash: string) =>
  db.selectFrom('api_key').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();

export const findApiKey = (db: Kysely<InferenceDatabase>, id: string) =>
  db.selectFrom('api_key').selectAll().where('id', '=', id).executeTakeFirst();

export const apiKeysOfResource = (db: Kysely<InferenceDatabase>, resourceId: string) =>
  db.selectFrom('api_key').selectAll().where('resource_id', '=', resourceId).orderBy('created').execute();

/** Revokes a key (idempotent); false if no such key. */
export async function revokeApiKey(db: Kysely<InferenceDatabase>, id: string, now: number): Promise<boolean> {
  const found = await db.selectFrom('api_key').select('revoked').where('id', '=', id).executeTakeFirst();
  if (!found) return false;
  await db.updateTable('api_key').set({ revoked: now }).where('id', '=', id).where('revoked', 'is', null).execute();
  return true;
}

/** Replaces a key's secret: a rotation at `rotated`, or the demo key when `ATRIUM_DEMO_KEY` changes between starts. */
export async function setApiKeySecret(
  db: Kysely<InferenceDatabase>,
  id: string,
  secretHash: string,
  hint: string,
  rotated?: number,
) {
  await db
    .updateTable('api_key')
    .set({ secret_hash: secretHash, secret_hint: hint, ...(rotated === undefined ? {} : { rotated }) })
    .where('id', '=', id)
    .execute();
}

/** Changes columns of a key; false when its new alias is taken by another key of the resource. */
export async function updateApiKey(
  db: Kysely<InferenceDatabase>,
  key: Pick<ApiKeyRow, 'id' | 'resource_id'>,
  changes: Partial<Omit<ApiKeyRow, 'id' | 'project_id' | 'resource_id'>>,
): Promise<boolean> {
  if (changes.alias_key !== undefined) {
    const clash = await db
      .selectFrom('api_key')
      .select('id')
      .where('resource_id', '=', key.resource_id)
      .where('alias_key', '=', changes.alias_key)
      .where('id', '<>', key.id)
      .executeTakeFirst();
    if (clash) return false;
  }
  if (Object.keys(changes).length > 0) await db.updateTable('api_key').set(changes).where('id', '=', key.id).execute();
  return true;
}
