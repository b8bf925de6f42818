import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_STATE_TTL_SECONDS } from '../auth/session-tokens.js';

/**
 * Ties an OAuth sign-in to the browser that started it: starting one puts a random nonce in an HTTP-only cookie
 * (SameSite=Lax, so it is sent by the console page the provider redirects back to; only under `/v0/auth`) and its
 * hash in the signed state; completing one requires that cookie. A state carried to another browser (login CSRF)
 * fails there.
 */

const COOKIE = 'atrium_bench_oauth';

const hashOf = (nonce: string) => createHash('sha256').update(nonce).digest('base64url');

function setCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${COOKIE}=${value}; Path=/v0/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`,
  );
}

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Gives the browser a fresh nonce; answers its hash, for the state. */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = randomBytes(32).toString('base64url');
  setCookie(request, reply, nonce, OAUTH_STATE_TTL_SECONDS);
  return hashOf(nonce);
}

/** Whether this request comes from the browser whose nonce hashes to `hash`; the nonce is spent either way. */
export function sameBrowser(request: FastifyRequest, reply: FastifyReply, hash: string): boolean {
  const nonce = cookieOf(request);
  if (nonce === undefined) return false;
  setCookie(request, reply, '', 0);
  const [given, expected] = [Buffer.from(hashOf(nonce)), Buffer.from(hash)];
  return given.length === expected.length && timingSafeEqual(given, expected);
}
