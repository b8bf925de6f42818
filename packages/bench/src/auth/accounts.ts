import { HttpError } from '@atrium/core';
import type { Kysely } from 'kysely';
import { UNIQUE_VIOLATION } from '../domain/ingest-report.js';
import { findInvitation, invitationProblem, useInvitation } from '../storage/invitations.js';
import { addMember, lockOrganization } from '../storage/members.js';
import { claimOrganization, createOrganization, findOrganization, organizationRole } from '../storage/organizations.js';
import type { BenchDatabase } from '../storage/schema.js';
import { type Db, inTransaction, type Organization, type User } from '../storage/types.js';
import { countUsers, createUser, findUserByEmail } from '../storage/users.js';
import { slugify, suffixedSlug } from '../wire/slug.js';
import type { Invite } from './invites.js';

/**
 * Accounts made by sign-up (email or OAuth), as Bencher makes them: the first user ever is a server admin; a new
 * user gets a personal organisation they lead, unless they join through an invitation or claim an organisation
 * nobody belongs to yet (made by an anonymous run).
 */

export type Joining =
  | { kind: 'personal' }
  | { kind: 'invite'; invite: Invite }
  | { kind: 'claim'; organization: Organization };

export interface NewAccount {
  name: string;
  slug?: string | undefined;
  email: string;
}

export const emailTaken = () => new HttpError(409, 'conflict', 'A user with this email already exists.');

async function freeUserSlug(db: Db, slug: string): Promise<string> {
  const taken = await db.selectFrom('user').select('uuid').where('slug', '=', slug).executeTakeFirst();
  return taken ? suffixedSlug(slug) : slug;
}

/** Tries at a free slug: concurrent sign-ups of one name race for it (and for its suffixes within a second). */
const SLUG_ATTEMPTS = 8;

/** The organisation an invitation or a claim names, checked before anything is created. */
export async function organizationToJoin(db: Db, uuid: string, claim: boolean): Promise<Organization> {
  const organization = await findOrganization(db, { column: 'uuid', value: uuid });
  if (!organization) throw new HttpError(404, 'not_found', `Organization (${uuid}) not found`);
  if (claim && organization.claimed !== null) {
    throw new HttpError(409, 'conflict', 'This organization has already been claimed.');
  }
  return organization;
}

/**
 * Runs `create` with the slug asked for, or a suffixed one, until no other user (or organisation) took it first: a
 * unique violation means a concurrent sign-up won that slug. 409 if none is found.
 */
async function withFreeSlug<T>(db: Db, base: string, create: (slug: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    const slug = attempt === 0 ? await freeUserSlug(db, base) : suffixedSlug(base);
    try {
      return await create(slug);
    } catch (error) {
      if (!UNIQUE_VIOLATION.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
  throw new HttpError(409, 'conflict', `No free slug was found for ${base}; please choose a slug.`);
}

export async function signUp(
  db: Kysely<BenchDatabase>,
  account: NewAccount,
  joining: Joining,
  now = Date.now(),
): Promise<User> {
  const base = account.slug ?? (slugify(account.name) || 'user');
  const user = await withFreeSlug(db, base, (slug) =>
    db.transaction().execute(async (trx) => {
      if (await findUserByEmail(trx, account.email)) throw emailTaken();
      const admin = (await countUsers(trx)) === 0;
      const created = await createUser(trx, { name: account.name, slug, email: account.email, admin }, now);
      if (joining.kind === 'personal') {
        await createOrganization(trx, { name: account.name, slug, leader: created.uuid }, now);
      } else if (joining.kind === 'invite') {
        await joinByInvite(trx, created.uuid, joining.invite, now);
      }
      return created;
    }),
  );
  if (joining.kind === 'claim' && !(await claimOrganization(db, joining.organization.uuid, user.uuid, now))) {
    // Claimed by someone else meanwhile: the new user still gets an organisation of their own.
    await createOrganization(db, { name: account.name, slug: user.slug, leader: user.uuid }, now);
  }
  return user;
}

export const invalidInvitation = (reason: string) =>
  new HttpError(400, 'bad_request', `Failed to validate the invitation: ${reason}.`);

/** Uses the invitation up and makes the user a member with the role it offers, in the caller's transaction. */
async function joinByInvite(trx: Db, userUuid: string, invite: Invite, now: number): Promise<void> {
  if (!(await useInvitation(trx, invite.uuid, now))) {
    throw invalidInvitation(invitationProblem(await findInvitation(trx, invite.uuid), now) ?? 'it was just used');
  }
  await addMember(trx, invite.organization, userUuid, invite.role, now);
}

/**
 * Makes an existing user a member as the invitation offers, if it is still pending (400 otherwise); false, and
 * the invitation left as it is, when they already are a member.
 */
export async function acceptInvite(db: Db, user: User, invite: Invite, now = Date.now()): Promise<boolean> {
  await organizationToJoin(db, invite.organization, false);
  return inTransaction(db, async (trx) => {
    await lockOrganization(trx, invite.organization);
    if (await organizationRole(trx, invite.organization, user.uuid)) return false;
    await joinByInvite(trx, user.uuid, invite, now);
    return true;
  });
}
