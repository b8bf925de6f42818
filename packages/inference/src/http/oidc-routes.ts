import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { accountForOidc } from '../storage/accounts.js';
import type { InferenceDatabase } from '../storage/schema.js';
import type { OidcClient, PendingLogin } from '../ui/oidc.js';
import { cookieOf, setCookie, type UiSessions } from './ui-session.js';

const PENDING_COOKIE = 'atrium_ui_oidc';

const callbackUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}/ui/oidc/callback`;

/** `/ui/oidc/start` redirects to the provider; `/ui/oidc/callback` checks its answer and signs the account in. */
export function registerOidcRoutes(
  scope: FastifyInstance,
  db: Kysely<InferenceDatabase>,
  oidc: OidcClient,
  sessions: UiSessions,
  clock: () => number,
): void {
  scope.get('/oidc/start', async (request, reply) => {
    const { url, pending } = await oidc.start(callbackUrl(request));
    // Lax: the provider's redirect back is a cross-site navigation, which Strict cookies do not survive.
    setCookie(request, reply, PENDING_COOKIE, Buffer.from(JSON.stringify(pending)).toString('base64url'), 600, 'Lax');
    return reply.redirect(url, 303);
  });

  scope.get('/oidc/callback', async (request, reply) => {
    const query = request.query as { code?: string; state?: string; error?: string };
    const cookie = cookieOf(request, PENDING_COOKIE);
    let pending: PendingLogin | undefined;
    try {
      pending = cookie ? (JSON.parse(Buffer.from(cookie, 'base64url').toString()) as PendingLogin) : undefined;
    } catch {
      pending = undefined;
    }
    if (!pending || !query.state || query.state !== pending.state || !query.code)
      throw new HttpError(
        400,
        'oidc_failed',
        `sign-in was not completed${query.error ? ` (${query.error})` : ''}; try again`,
      );
    const identity = await oidc.finish(query.code, callbackUrl(request), pending);
    if (!identity.email)
      throw new HttpError(403, 'oidc_failed', 'the sign-in provider did not share a verified email address');
    const account = await accountForOidc(
      db,
      { subject: identity.subject, email: identity.email, name: identity.name },
      clock(),
    );
    setCookie(request, reply, PENDING_COOKIE, '', 0, 'Lax');
    await sessions.start(request, reply, { accountId: account.id });
    // A same-site step before /ui/: the Strict session cookie is not sent on a redirect chain that began cross-site.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('<!doctype html><meta http-equiv="refresh" content="0;url=/ui/"><a href="/ui/">Continue</a>');
  });
}
