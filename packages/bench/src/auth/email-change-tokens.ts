import { mintJwt, verifyJwt } from './jwt.js';
import type { Signer } from './session-tokens.js';

/**
 * The token mailed to a new e-mail address to confirm it: HS256, audience `email` (so it is no session and no
 * sign-in link), the new address as subject, the pending change's UUID as `jti`. It works once: confirming deletes
 * the change.
 */

const AUDIENCE = 'email';

export function mintEmailChangeToken(
  signer: Signer,
  change: { uuid: string; email: string },
  nowSeconds: number,
  ttlSeconds: number,
): string {
  return mintJwt(
    {
      aud: AUDIENCE,
      iat: nowSeconds,
      exp: nowSeconds + ttlSeconds,
      iss: signer.issuer,
      sub: change.email,
      jti: change.uuid,
    },
    signer.secret,
  );
}

export type EmailChangeCheck = { ok: true; uuid: string; email: string } | { ok: false; reason: string };

export function readEmailChangeToken(signer: Signer, token: string, nowSeconds: number): EmailChangeCheck {
  const check = verifyJwt(token, signer.secret, signer.issuer, nowSeconds, [AUDIENCE]);
  if (!check.ok) return check;
  if (typeof check.claims.jti !== 'string') return { ok: false, reason: 'missing change' };
  return { ok: true, uuid: check.claims.jti, email: check.email };
}
