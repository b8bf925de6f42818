import { mintJwt, verifyJwt } from './jwt.js';
import { ORGANIZATION_ROLES, type OrganizationRole } from './permissions.js';

/**
 * Organisation invitations as Bencher signs them: an HS256 JWT with audience `invite`, the invitee's
 * email as subject and `org: {uuid, role}`; valid for u32::MAX seconds, as in Bencher.
 */

export const INVITE_AUDIENCE = 'invite';
const INVITE_TTL_SECONDS = 4_294_967_295;

export interface Invite {
  email: string;
  organization: string;
  role: OrganizationRole;
}

export interface Signer {
  secret: string;
  issuer: string;
}

export function mintInvite(invite: Invite, signer: Signer, nowSeconds: number): string {
  return mintJwt(
    {
      aud: INVITE_AUDIENCE,
      iat: nowSeconds,
      exp: nowSeconds + INVITE_TTL_SECONDS,
      iss: signer.issuer,
      sub: invite.email,
      org: { uuid: invite.organization, role: invite.role },
    },
    signer.secret,
  );
}

export type InviteCheck = { ok: true; invite: Invite } | { ok: false; reason: string };

export function readInvite(token: string, signer: Signer, nowSeconds: number): InviteCheck {
  const check = verifyJwt(token, signer.secret, signer.issuer, nowSeconds, [INVITE_AUDIENCE]);
  if (!check.ok) return check;
  const org = check.claims.org;
  const role = org?.role as OrganizationRole | undefined;
  if (typeof org?.uuid !== 'string' || role === undefined || !ORGANIZATION_ROLES.includes(role)) {
    return { ok: false, reason: 'missing organization claim' };
  }
  return { ok: true, invite: { email: check.email, organization: org.uuid, role } };
}
