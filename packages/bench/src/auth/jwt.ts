import { createHmac, timingSafeEqual } from 'node:crypto';

/** HS256 JSON Web Tokens as Bencher issues them (claims aud, exp, iat, iss, sub = email). */

export const API_AUDIENCES = ['client', 'api_key'] as const;

export interface JwtClaims {
  aud: string;
  exp: number;
  iat: number;
  iss: string;
  sub: string;
  /** Invitations only: the organisation and the role offered. */
  org?: { uuid: string; role: string };
  /** Confirmation tokens only: makes each one distinct, so each can be used once. */
  jti?: string;
  /** OAuth state only: what the sign-in carries through the provider (an invitation, a claim). */
  state?: { invite?: string; claim?: string };
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
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
  let claims: Partial<JwtClaims>;
  let alg: unknown;
  try {
    alg = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'not a JSON Web Token' };
  }
  if (alg !== 'HS256') return { ok: false, reason: 'unsupported algorithm' };
  const expected = sign(`${header}.${payload}`, secret);
  const given = Buffer.from(signature, 'base64url');
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
