import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_STATE_TTL_SECONDS } from '../auth/session-tokens.js';
import { authCookie, setAuthCookie } from './auth-cookies.js';

/**
 * Ties an OAuth sign-in to the browser that started it: starting one puts a random nonce in an HTTP-only cookie
 * (SameSite=Lax, so it is sent by the console page the provider redirects back to; only under `/v0/auth`) and its
 * hash in the signed state; completing one requires that cookie. A state carried to another browser (login CSRF)
 * fails there.
 */

const COOKIE = 'atrium_bench_oauth';

const hashOf = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

/** Gives the browser a fresh nonce; answers its hash, for the state. */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = randomBytes(32).toString('base64url');
  setAuthCookie(request, reply, {
    name: COOKIE,
    value: nonce,
    maxAgeSeconds: OAUTH_STATE_TTL_SECONDS,
    sameSite: 'Lax',
  });
  return hashOf(nonce);
}

/** Whether this request comes from the browser whose nonce hashes to `hash`; the nonce is spent either way. */
export function sameBrowser(request: FastifyRequest, reply: FastifyReply, hash: string): boolean {
  const nonce = authCookie(request, COOKIE);
  if (nonce === undefined) return false;
  setAuthCookie(request, reply, { name: COOKIE, value: '', maxAgeSeconds: 0, sameSite: 'Lax' });
  const [given, expected] = [Buffer.from(hashOf(nonce)), Buffer.from(hash)];
  return given.length === expected.length && timingSafeEqual(given, expected);
}
