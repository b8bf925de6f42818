import { mintJwt, verifyJwt } from './jwt.js';
import { ORGANIZATION_ROLES, type OrganizationRole } from './permissions.js';

/**
 * Organisation invitations as Bencher signs them: an HS256 JWT with audience `invite`, the invitee's email as
 * subject and `org: {uuid, role}`; plus a `jti`, the invitation's row, which says whether it may still be used.
 * Bencher's lasts u32::MAX seconds; here `auth.inviteTtlSeconds` (7 days by default).
 */

export const INVITE_AUDIENCE = 'invite';

export interface Invite {
  /** The `jti`: the UUID of the invitation's row. */
  uuid: string;
  email: string;
  organization: string;
  role: OrganizationRole;
}

export interface Signer {
  secret: string;
  issuer: string;
}

export function mintInvite(invite: Invite, signer: Signer, nowSeconds: number, ttlSeconds: number): string {
  return mintJwt(
    {
      aud: INVITE_AUDIENCE,
      iat: nowSeconds,
      exp: nowSeconds + ttlSeconds,
      iss: signer.issuer,
      sub: invite.email,
      jti: invite.uuid,
      org: { uuid: invite.organization, role: invite.role },
    },
    signer.secret,
  );
}

export type InviteCheck = { ok: true; invite: Invite } | { ok: false; reason: string };

export function readInvite(token: string, signer: Signer, nowSeconds: number): InviteCheck {
  const check = verifyJwt(token, signer.secret, signer.issuer, nowSeconds, [INVITE_AUDIENCE]);
  if (!check.ok) return check;
  const { org, jti } = check.claims;
  const role = org?.role as OrganizationRole | undefined;
  if (typeof org?.uuid !== 'string' || role === undefined || !ORGANIZATION_ROLES.includes(role)) {
    return { ok: false, reason: 'missing organization claim' };
  }
  if (typeof jti !== 'string') return { ok: false, reason: 'no such invitation' };
  return { ok: true, invite: { uuid: jti, email: check.email, organization: org.uuid, role } };
}
