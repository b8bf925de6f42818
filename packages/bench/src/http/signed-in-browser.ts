import type { FastifyReply, FastifyRequest } from 'fastify';
import { mailboxOf } from '../auth/login-guard.js';
import { mintBrowserToken, readBrowserToken } from '../auth/session-tokens.js';
import { authCookie, setAuthCookie } from './auth-cookies.js';
import { signerOf } from './auth-session.js';
import type { BenchContext } from './context.js';

/**
 * Remembers in a browser that it followed a link for a mailbox (an HTTP-only, SameSite=Strict cookie holding a
 * signed `browser` token, for a session's lifetime), so that the owner's log-in from that browser, at any client
 * address, is never held by the caps strangers can exhaust.
 */

const COOKIE = 'atrium_bench_browser';

export function rememberBrowser(context: BenchContext, request: FastifyRequest, reply: FastifyReply, email: string) {
  const ttl = context.config.auth.sessionTtlSeconds;
  const value = mintBrowserToken(signerOf(context), mailboxOf(email), ttl, Date.now());
  setAuthCookie(request, reply, { name: COOKIE, value, maxAgeSeconds: ttl, sameSite: 'Strict' });
}

export function browserSignedInTo(context: BenchContext, request: FastifyRequest, email: string): boolean {
  const token = authCookie(request, COOKIE);
  return token !== undefined && readBrowserToken(signerOf(context), token, Date.now()) === mailboxOf(email);
}
