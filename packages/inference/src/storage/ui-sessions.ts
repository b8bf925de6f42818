import type { Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, UiSessionTable } from './schema.js';

export type UiSession = Selectable<UiSessionTable>;

export const insertUiSession = (db: Kysely<InferenceDatabase>, session: UiSession) =>
  db.insertInto('ui_session').values(session).execute();

/** The unexpired session with this token hash; expired ones are removed on the way. */
export async function findUiSession(db: Kysely<InferenceDatabase>, tokenHash: string, now: number) {
  const session = await db.selectFrom('ui_session').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (session && session.expires <= now) {
    await deleteUiSession(db, tokenHash);
    return undefined;
  }
  return session;
}

export const deleteUiSession = (db: Kysely<InferenceDatabase>, tokenHash: string) =>
  db.deleteFrom('ui_session').where('token_hash', '=', tokenHash).execute();

export const deleteExpiredUiSessions = (db: Kysely<InferenceDatabase>, now: number) =>
  db.deleteFrom('ui_session').where('expires', '<=', now).execute();
