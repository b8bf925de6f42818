import { createHmac, timingSafeEqual } from 'node:crypto';

/** HS256 JSON Web Tokens as Bencher issues them (claims aud, exp, iat, iss, sub = email). */

export const API_AUDIENCES = ['client', 'api_key'] as const;

export interface SignupClaim {
  name: string;
  slug?: string;
  invite?: string;
  claim?: string;
}

export interface JwtClaims {
  aud: string;
  exp: number;
  iat: number;
  iss: string;
  sub: string;
  /** Invitations only: the organisation and the role offered. */
  org?: { uuid: string; role: string };
  /** Single-use tokens (confirmation, OAuth state): their identity, under which their one use is recorded. */
  jti?: string;
  /** OAuth state only: what the sign-in carries through the provider (an invitation, a claim). */
  state?: { invite?: string; claim?: string };
  /** OAuth state only: the sha256 (base64url) of the nonce in the cookie of the browser that started the sign-in. */
  browser?: string;
  /** Sign-up confirmation only: the account to create once the link is followed. */
  signup?: SignupClaim;
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of a part only when it is written the one way `base64url` writes them: the URL alphabet, no padding,
 * no impossible length, and no bits set past the data in the last character. Node's decoder accepts all of those
 * (and skips stray characters), so many spellings would otherwise verify as the same token.
 */
export function decodeCanonicalBase64url(part: string): Buffer | undefined {
  if (!BASE64URL.test(part) || part.length % 4 === 1) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

const sign = (input: string, secret: string) => createHmac('sha256', secret).update(input).digest();

export function mintJwt(claims: JwtClaims, secret: string): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${base64url(sign(body, secret))}`;
}

export type JwtCheck = { ok: true; email: string; claims: Partial<JwtClaims> } | { ok: false; reason: string };

/** Verifies signature, algorithm, issuer, audience (by default client or api_key) and expiry. */
export function verifyJwt(
  token: string,
  secret: string,
  issuer: string,
  nowSeconds: number,
  audiences: readonly string[] = API_AUDIENCES,
): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a JSON Web Token' };
  const [header, payload, signature] = parts as [string, string, string];
  const [headerBytes, payloadBytes, given] = [header, payload, signature].map(decodeCanonicalBase64url);
  if (!headerBytes || !payloadBytes || !given) return { ok: false, reason: 'not a JSON Web Token' };
  let claims: Partial<JwtClaims>;
  let alg: unknown;
  try {
    alg = JSON.parse(headerBytes.toString('utf8')).alg;
    claims = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not a JSON Web Token' };
  }
  if (alg !== 'HS256') return { ok: false, reason: 'unsupported algorithm' };
  const expected = sign(`${header}.${payload}`, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'invalid signature' };
  }
  if (typeof claims !== 'object' || claims === null) return { ok: false, reason: 'invalid claims' };
  if (claims.iss !== issuer) return { ok: false, reason: 'invalid issuer' };
  if (!(audiences as readonly unknown[]).includes(claims.aud)) return { ok: false, reason: 'invalid audience' };
  if (typeof claims.exp !== 'number' || claims.exp < nowSeconds) return { ok: false, reason: 'expired' };
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) return { ok: false, reason: 'missing subject' };
  return { ok: true, email: claims.sub, claims };
}
