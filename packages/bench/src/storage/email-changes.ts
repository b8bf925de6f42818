import type { Selectable } from 'kysely';
import type { EmailChangeTable } from './schema.js';
import type { Db } from './types.js';

/** A user's new e-mail address, waiting until the mail sent to it is confirmed; at most one per user. */
export type EmailChange = Selectable<EmailChangeTable>;

/** Records the user's pending change, replacing the one before (whose token then no longer works). */
export async function recordEmailChange(db: Db, change: EmailChange): Promise<void> {
  await cancelEmailChange(db, change.user_uuid);
  await db.insertInto('email_change').values(change).execute();
}

export async function cancelEmailChange(db: Db, userUuid: string): Promise<void> {
  await db.deleteFrom('email_change').where('user_uuid', '=', userUuid).execute();
}

/** The user's unexpired pending change. */
export const pendingEmailChange = (db: Db, userUuid: string, now: number): Promise<EmailChange | undefined> =>
  db
    .selectFrom('email_change')
    .selectAll()
    .where('user_uuid', '=', userUuid)
    .where('expires', '>', now)
    .executeTakeFirst();

/**
 * Removes and answers the pending change `uuid` of the user, if unexpired; undefined when there is none (already
 * confirmed, replaced or cancelled). Deleting first makes the token work once, also between concurrent requests.
 */
export async function takeEmailChange(
  db: Db,
  userUuid: string,
  uuid: string,
  now: number,
): Promise<EmailChange | undefined> {
  return db
    .deleteFrom('email_change')
    .where('uuid', '=', uuid)
    .where('user_uuid', '=', userUuid)
    .where('expires', '>', now)
    .returningAll()
    .executeTakeFirst();
}
