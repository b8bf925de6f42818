import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { InferenceDatabase } from '../storage/schema.js';
import { deleteUiSession, findUiSession, insertUiSession, type UiSession } from '../storage/ui-sessions.js';
import { hashSecret } from '../tenancy/secrets.js';

const SESSION_COOKIE = 'atrium_ui';
/** Double-submit token for the sign-in forms, before a session exists. */
const SIGN_IN_COOKIE = 'atrium_ui_csrf';
export const SESSION_TTL_MS = 8 * 3_600_000;

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** An HTTP-only cookie under `/ui`; Strict unless it must survive a cross-site redirect back (OIDC). */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
  sameSite: 'Strict' | 'Lax' = 'Strict',
) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${name}=${encodeURIComponent(value)}; Path=/ui; HttpOnly; SameSite=${sameSite}; Max-Age=${maxAgeSeconds}${secure}`,
  );
}

const sameToken = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const forbidden = () =>
  new HttpError(403, 'csrf', 'This form has expired or did not come from this site. Reload the page and try again.');

/** Web UI sessions: an opaque random token in an HTTP-only SameSite cookie, only its hash stored, with a CSRF token. */
export class UiSessions {
  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly clock: () => number = Date.now,
  ) {}

  async current(request: FastifyRequest): Promise<UiSession | undefined> {
    const token = cookieOf(request, SESSION_COOKIE);
    return token ? findUiSession(this.db, hashSecret(token), this.clock()) : undefined;
  }

  async start(request: FastifyRequest, reply: FastifyReply, who: { accountId?: string; keyId?: string }) {
    const token = randomBytes(32).toString('base64url');
    await insertUiSession(this.db, {
      token_hash: hashSecret(token),
      account_id: who.accountId ?? null,
      key_id: who.keyId ?? null,
      csrf: randomBytes(24).toString('base64url'),
      expires: this.clock() + SESSION_TTL_MS,
    });
    setCookie(request, reply, SESSION_COOKIE, token, SESSION_TTL_MS / 1000);
  }

  async end(request: FastifyRequest, reply: FastifyReply) {
    const token = cookieOf(request, SESSION_COOKIE);
    if (token) await deleteUiSession(this.db, hashSecret(token));
    setCookie(request, reply, SESSION_COOKIE, '', 0);
  }

  /** The sign-in forms' token: the cookie's, or a new one set now. */
  signInToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = cookieOf(request, SIGN_IN_COOKIE);
    if (existing) return existing;
    const token = randomBytes(24).toString('base64url');
    setCookie(request, reply, SIGN_IN_COOKIE, token, 3_600);
    return token;
  }

  checkSignIn(request: FastifyRequest, form: URLSearchParams): void {
    if (!sameToken(cookieOf(request, SIGN_IN_COOKIE), form.get('csrf') ?? undefined)) throw forbidden();
  }

  /** A signed-in POST: a session, and the form carries its CSRF token. */
  async checkForm(request: FastifyRequest, form: URLSearchParams): Promise<UiSession> {
    const session = await this.current(request);
    if (!session) throw new HttpError(401, 'signed_out', 'Your session has ended. Sign in again.');
    if (!sameToken(session.csrf, form.get('csrf') ?? undefined)) throw forbidden();
    return session;
  }
}
