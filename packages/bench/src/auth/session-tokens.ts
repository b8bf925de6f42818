import { randomUUID } from 'node:crypto';
import { type JwtCheck, type JwtClaims, mintJwt, verifyJwt } from './jwt.js';

/**
 * The tokens of Bencher's sign-in flows: `auth` (the emailed confirmation, single-use), `client` (a browser
 * session) and `oauth` (the state carried through an OAuth provider). All HS256 with the server's issuer.
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

export const mintConfirmationToken = (signer: Signer, email: string, ttlSeconds: number, nowMs: number) =>
  mint(signer, { aud: 'auth', sub: email, jti: randomUUID() }, ttlSeconds, nowMs);

export const mintSessionToken = (signer: Signer, email: string, ttlSeconds: number, nowMs: number): MintedToken =>
  mint(signer, { aud: 'client', sub: email }, ttlSeconds, nowMs);

export const readConfirmationToken = (signer: Signer, token: string, nowMs: number): JwtCheck =>
  verifyJwt(token, signer.secret, signer.issuer, Math.floor(nowMs / 1000), ['auth']);

/** An OAuth `state`: good for 10 minutes, the time to pass through the provider's pages. */
const OAUTH_STATE_TTL_SECONDS = 600;

export const mintOAuthState = (signer: Signer, state: { invite?: string; claim?: string }, nowMs: number) =>
  mint(signer, { aud: 'oauth', sub: 'oauth', jti: randomUUID(), state }, OAUTH_STATE_TTL_SECONDS, nowMs).token;

export function readOAuthState(signer: Signer, token: string, nowMs: number): { invite?: string; claim?: string } {
  const check = verifyJwt(token, signer.secret, signer.issuer, Math.floor(nowMs / 1000), ['oauth']);
  if (!check.ok) throw new Error(check.reason);
  const state = check.claims.state ?? {};
  return {
    ...(typeof state.invite === 'string' ? { invite: state.invite } : {}),
    ...(typeof state.claim === 'string' ? { claim: state.claim } : {}),
  };
}
