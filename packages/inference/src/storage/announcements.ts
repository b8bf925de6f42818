import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AnnouncementTable, InferenceDatabase } from './schema.js';

export type Announcement = Selectable<AnnouncementTable>;

export const insertAnnouncement = (db: Kysely<InferenceDatabase>, row: Insertable<AnnouncementTable>) =>
  db.insertInto('announcement').values(row).returningAll().executeTakeFirstOrThrow();

/** Announcements not over yet (current and upcoming), soonest first. */
export const openAnnouncements = (db: Kysely<InferenceDatabase>, now: number): Promise<Announcement[]> =>
  db.selectFrom('announcement').selectAll().where('ends', '>', now).orderBy('starts').orderBy('id').execute();

/** Announcements that ended after `since`, latest end first. */
export const pastAnnouncements = (
  db: Kysely<InferenceDatabase>,
  now: number,
  since: number,
  limit: number,
): Promise<Announcement[]> =>
  db
    .selectFrom('announcement')
    .selectAll()
    .where('ends', '<=', now)
    .where('ends', '>', since)
    .orderBy('ends', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** The newest announcements first, as the Atom feed lists them. */
export const latestAnnouncements = (db: Kysely<InferenceDatabase>, limit: number): Promise<Announcement[]> =>
  db.selectFrom('announcement').selectAll().orderBy('created', 'desc').orderBy('id', 'desc').limit(limit).execute();

/**
 * Everyone subscribed: members of a project that has an inference resource, unless they opted out.
 */
export const subscriberEmails = async (db: Kysely<InferenceDatabase>): Promise<string[]> =>
  (
    await db
      .selectFrom('account')
      .select('account.email')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('project_member')
            .innerJoin('inference_resource', 'inference_resource.project_id', 'project_member.project_id')
            .select('project_member.account_id')
            .whereRef('project_member.account_id', '=', 'account.id'),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('announcement_opt_out')
              .select('account_id')
              .whereRef('announcement_opt_out.account_id', '=', 'account.id'),
          ),
        ),
      )
      .orderBy('account.email')
      .execute()
  ).map((r) => r.email);

export async function setOptOut(db: Kysely<InferenceDatabase>, accountId: string, optedOut: boolean) {
  if (optedOut)
    await db
      .insertInto('announcement_opt_out')
      .values({ account_id: accountId })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
  else await db.deleteFrom('announcement_opt_out').where('account_id', '=', accountId).execute();
}

export const isOptedOut = async (db: Kysely<InferenceDatabase>, accountId: string): Promise<boolean> =>
  (await db
    .selectFrom('announcement_opt_out')
    .select('account_id')
    .where('account_id', '=', accountId)
    .executeTakeFirst()) !== undefined;
