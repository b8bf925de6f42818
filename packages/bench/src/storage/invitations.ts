import { type Selectable, sql } from 'kysely';
import type { Page } from '../wire/pagination.js';
import { type Listed, paged } from './list-query.js';
import type { InvitationTable } from './schema.js';
import type { Db } from './types.js';

/**
 * Invitations to organisations: pending until accepted (`used`), revoked, superseded by a newer invitation to the
 * same address, voided by a change of that address's membership, or expired.
 */

export type Invitation = Selectable<InvitationTable>;

/** A pending invitation as the organisation's owners see it, with who sent it. */
export type PendingInvitation = Invitation & { inviter_name: string; inviter_slug: string };

const sameEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`;

/** Records a new invitation; an older pending one to the same address for the same organisation is revoked. */
export async function recordInvitation(db: Db, invitation: Omit<Invitation, 'state'>): Promise<void> {
  await revokeInvitationsTo(db, invitation.organization_uuid, invitation.email);
  await db
    .insertInto('invitation')
    .values({ ...invitation, state: 'pending' })
    .execute();
}

export const findInvitation = (db: Db, uuid: string): Promise<Invitation | undefined> =>
  db.selectFrom('invitation').selectAll().where('uuid', '=', uuid).executeTakeFirst();

/** Why an invitation cannot be accepted now, or undefined when it can. */
export function invitationProblem(invitation: Invitation | undefined, now: number): string | undefined {
  if (!invitation) return 'no such invitation';
  if (invitation.state === 'used') return 'it was already used';
  if (invitation.state === 'revoked') return 'it was revoked';
  if (invitation.expires <= now) return 'it has expired';
  return undefined;
}

/**
 * Marks a pending, unexpired invitation used; false when it no longer is. One statement, so of two concurrent
 * acceptances only one succeeds (PostgreSQL re-checks the condition once the first commits).
 */
export async function useInvitation(db: Db, uuid: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invitation')
    .set({ state: 'used' })
    .where('uuid', '=', uuid)
    .where('state', '=', 'pending')
    .where('expires', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the organisation's pending invitations to `email` (any case). */
export async function revokeInvitationsTo(db: Db, organizationUuid: string, email: string): Promise<void> {
  await db
    .updateTable('invitation')
    .set({ state: 'revoked' })
    .where('organization_uuid', '=', organizationUuid)
    .where('state', '=', 'pending')
    .where(sameEmail(email))
    .execute();
}

/** Revokes one pending invitation of the organisation; false when there is none by that UUID. */
export async function revokeInvitation(db: Db, organizationUuid: string, uuid: string): Promise<boolean> {
  const result = await db
    .updateTable('invitation')
    .set({ state: 'revoked' })
    .where('organization_uuid', '=', organizationUuid)
    .where('uuid', '=', uuid)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The organisation's pending, unexpired invitations, newest first (by default). */
export function listPendingInvitations(
  db: Db,
  organizationUuid: string,
  now: number,
  page: Page,
): Promise<Listed<PendingInvitation>> {
  const query = db
    .selectFrom('invitation')
    .innerJoin('user', 'user.uuid', 'invitation.inviter_uuid')
    .where('invitation.organization_uuid', '=', organizationUuid)
    .where('invitation.state', '=', 'pending')
    .where('invitation.expires', '>', now);
  return paged(
    query,
    (q) =>
      q
        .selectAll('invitation')
        .select(['user.name as inviter_name', 'user.slug as inviter_slug'])
        .orderBy('invitation.created', page.direction ?? 'desc')
        .orderBy('invitation.uuid'),
    page,
  );
}
