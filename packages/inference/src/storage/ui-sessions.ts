import type { Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, UiSessionTable } from './schema.js';

export type UiSession = Selectable<UiSessionTable>;

export const insertUiSession = (db: Kysely<InferenceDatabase>, session: UiSession) =>
  db.insertInto('ui_session').values(session).execute();

/**
 * The session with this token hash while it is valid: unexpired and, for a key sign-in, its key as the API
 * accepts it (not revoked). Others are removed on the way, so a revocation by any process ends the key's
 * sessions at their next request.
 */
export async function findUiSession(db: Kysely<InferenceDatabase>, tokenHash: string, now: number) {
  const found = await db
    .selectFrom('ui_session')
    .leftJoin('api_key', 'api_key.id', 'ui_session.key_id')
    .selectAll('ui_session')
    .select(['api_key.id as live_key_id', 'api_key.revoked as key_revoked'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!found) return undefined;
  const { live_key_id, key_revoked, ...session } = found;
  const keyEnded = session.key_id !== null && (live_key_id === null || key_revoked !== null);
  if (session.expires <= now || keyEnded) {
    await deleteUiSession(db, tokenHash);
    return undefined;
  }
  return session;
}

export const deleteUiSession = (db: Kysely<InferenceDatabase>, tokenHash: string) =>
  db.deleteFrom('ui_session').where('token_hash', '=', tokenHash).execute();

export const deleteExpiredUiSessions = (db: Kysely<InferenceDatabase>, now: number) =>
  db.deleteFrom('ui_session').where('expires', '<=', now).execute();
