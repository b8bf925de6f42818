import { createHash, randomUUID } from 'node:crypto';
import { type JwtCheck, type JwtClaims, mintJwt, type SignupClaim, verifyJwt } from './jwt.js';

/**
 * The tokens of Bencher's sign-in flows: `auth` (the emailed confirmation, single-use), `client` (a browser
 * session) and `oauth` (the state carried through an OAuth provider, single-use and bound to one browser). All
 * HS256 with the server's issuer.
 */

export interface Signer {
  secret: string;
  issuer: string;
}

export interface MintedToken {
  token: string;
  /** Unix seconds. */
  iat: number;
  exp: number;
}

function mint(signer: Signer, claims: Omit<JwtClaims, 'iat' | 'exp' | 'iss'>, ttlSeconds: number, nowMs: number) {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + ttlSeconds;
  return { token: mintJwt({ ...claims, iat, exp, iss: signer.issuer }, signer.secret), iat, exp };
}

/** A verified single-use token: the key its one use is recorded under, and when that record may go. */
export interface SingleUse {
  key: string;
  expiresMs: number;
}

/**
 * A single-use token's identity: issuer, audience and `jti` (the signed claims, however the token is spelled).
 * A token without a `jti` cannot be told apart from its copies, so it is refused.
 */
function singleUse(check: JwtCheck): (JwtCheck & { ok: true; use: SingleUse }) | { ok: false; reason: string } {
  if (!check.ok) return check;
  const { iss, aud, jti, exp } = check.claims;
  if (typeof jti !== 'string' || jti.length === 0) return { ok: false, reason: 'missing token id' };
  const key = createHash('sha256')
    .update(JSON.stringify([iss, aud, jti]))
    .digest('hex');
  return { ...check, use: { key, expiresMs: (exp as number) * 1000 } };
}

/** A confirmation link's token; a sign-up's also carries the account to create. */
export const mintConfirmationToken = (
  signer: Signer,
  email: string,
  ttlSeconds: number,
  nowMs: number,
  signup?: SignupClaim,
) => mint(signer, { aud: 'auth', sub: email, jti: randomUUID(), ...(signup ? { signup } : {}) }, ttlSeconds, nowMs);

export const mintSessionToken = (signer: Signer, email: string, ttlSeconds: number, nowMs: number): MintedToken =>
  mint(signer, { aud: 'client', sub: email }, ttlSeconds, nowMs);

export const readConfirmationToken = (signer: Signer, token: string, nowMs: number) =>
  singleUse(verifyJwt(token, signer.secret, signer.issuer, Math.floor(nowMs / 1000), ['auth']));

/** The sign-up a confirmation token carries, when its claim has the expected shape. */
export function signupOf(claims: Partial<JwtClaims>): SignupClaim | undefined {
  const signup = claims.signup;
  if (typeof signup !== 'object' || signup === null || typeof signup.name !== 'string') return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const [slug, invite, claim] = [text(signup.slug), text(signup.invite), text(signup.claim)];
  return { name: signup.name, ...(slug ? { slug } : {}), ...(invite ? { invite } : {}), ...(claim ? { claim } : {}) };
}

/**
 * What a browser keeps after following a link: that it signed in to this mailbox (`sub`). It exempts the owner's
 * log-in from the caps strangers can exhaust; it is no credential (audience `browser`, refused as a bearer token).
 */
export const mintBrowserToken = (signer: Signer, mailbox: string, ttlSeconds: number, nowMs: number) =>
  mint(signer, { aud: 'browser', sub: mailbox }, ttlSeconds, nowMs).token;

/** The mailbox a browser token names, if it is valid. */
export function readBrowserToken(signer: Signer, token: string, nowMs: number): string | undefined {
  const check = verifyJwt(token, signer.secret, signer.issuer, Math.floor(nowMs / 1000), ['browser']);
  return check.ok ? check.email : undefined;
}

/** An OAuth `state`: good for 10 minutes, the time to pass through the provider's pages. */
export const OAUTH_STATE_TTL_SECONDS = 600;

export interface OAuthState {
  invite?: string;
  claim?: string;
}

/** `browser` is the hash of the nonce the starting browser holds in a cookie (see `oauth-browser.ts`). */
export const mintOAuthState = (signer: Signer, state: OAuthState, browser: string, nowMs: number) =>
  mint(signer, { aud: 'oauth', sub: 'oauth', jti: randomUUID(), state, browser }, OAUTH_STATE_TTL_SECONDS, nowMs).token;

export type OAuthStateCheck =
  | { ok: true; state: OAuthState; browser: string; use: SingleUse }
  | { ok: false; reason: string };

export function readOAuthState(signer: Signer, token: string, nowMs: number): OAuthStateCheck {
  const check = singleUse(verifyJwt(token, signer.secret, signer.issuer, Math.floor(nowMs / 1000), ['oauth']));
  if (!check.ok) return check;
  const { state = {}, browser } = check.claims;
  if (typeof browser !== 'string') return { ok: false, reason: 'not bound to a browser' };
  return {
    ok: true,
    browser,
    use: check.use,
    state: {
      ...(typeof state.invite === 'string' ? { invite: state.invite } : {}),
      ...(typeof state.claim === 'string' ? { claim: state.claim } : {}),
    },
  };
}
