import { HttpError } from '@atrium/core';
import { invalidInvitation } from '../auth/accounts.js';
import type { Invite } from '../auth/invites.js';
import { readInvite } from '../auth/invites.js';
import { mintSessionToken, type Signer } from '../auth/session-tokens.js';
import type { User } from '../storage/types.js';
import { jsonUser } from '../wire/json.js';
import { toDateTime } from '../wire/time.js';
import type { BenchContext } from './context.js';

/** What the sign-in routes share: the signer, a session for a user (`JsonAuthUser`), invitations read. */

export const signerOf = (context: BenchContext): Signer => ({
  secret: context.jwtSecret,
  issuer: context.config.security.issuer,
});

/** Bencher's `JsonAuthUser`: the user, a `client` JWT and its lifetime. */
export function sessionFor(context: BenchContext, user: User, nowMs: number) {
  if (user.locked) throw new HttpError(403, 'forbidden', 'Your account has been locked. Please contact support.');
  const session = mintSessionToken(signerOf(context), user.email, context.config.auth.sessionTtlSeconds, nowMs);
  return {
    user: jsonUser(user),
    token: session.token,
    creation: toDateTime(session.iat * 1000),
    expiration: toDateTime(session.exp * 1000),
  };
}

/**
 * The invitation a sign-up, log-in or acceptance carries, which must be addressed to that email; whether it is
 * still pending is checked as it is used.
 */
export function invitationFor(context: BenchContext, token: string, email: string, nowMs: number): Invite {
  const check = readInvite(token, signerOf(context), Math.floor(nowMs / 1000));
  if (!check.ok) throw invalidInvitation(check.reason);
  if (check.invite.email.toLowerCase() !== email.toLowerCase()) {
    throw new HttpError(403, 'forbidden', 'This invitation was sent to another email address.');
  }
  return check.invite;
}
