import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { acceptInvite, type Joining, organizationToJoin, signUp } from '../auth/accounts.js';
import { GitHubOAuth, GoogleOAuth, type OAuthIdentity, type OAuthProvider } from '../auth/oauth-providers.js';
import { mintOAuthState, readOAuthState } from '../auth/session-tokens.js';
import { claimOrganization } from '../storage/organizations.js';
import { useTokenOnce } from '../storage/used-tokens.js';
import { findUserByEmail } from '../storage/users.js';
import { invitationFor, sessionFor, signerOf } from './auth-session.js';
import type { BenchContext } from './context.js';
import { bindBrowser, sameBrowser } from './oauth-browser.js';
import { nullable } from './schemas.js';

const urlQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    invite: { type: 'string', minLength: 1, maxLength: 4096 },
    claim: { type: 'string', format: 'uuid' },
    plan: { type: 'string', enum: ['free', 'team', 'enterprise'] },
  },
};
const oauthBody = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'state'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 4096 },
    state: { type: 'string', minLength: 1, maxLength: 8192 },
    plan: nullable({ type: 'string', enum: ['free', 'team', 'enterprise'] }),
  },
};

/** A provider's display name as a Bencher `UserName`: allowed characters only, at most 64. */
function userName(identity: OAuthIdentity): string {
  const cleaned = identity.name
    .replace(/[^\p{L}\p{N} ,.'-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64)
    .trim();
  return cleaned.length > 0 ? cleaned : 'User';
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * Bencher's OAuth 2.0 sign-in: `GET /v0/auth/{github,google}` answers the provider's authorization URL with a
 * signed `state` (carrying an invitation or a claim, bound to the asking browser by a cookie); `POST` takes the
 * state once, from that browser only, exchanges the code, reads the verified email, signs the user up or in and
 * answers 202 with a session. Without the provider configured: Bencher's 402.
 */
export function registerOAuthRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const { auth } = context.config;
  // Made at the first sign-in: the default console URL names the port the service listens on.
  const redirect = (path: string) => new URL(path, context.consoleUrl()).href;
  const providers: Record<string, () => OAuthProvider | undefined> = {
    github: once(() => (auth.github ? new GitHubOAuth(auth.github, redirect('/auth/github')) : undefined)),
    google: once(() => (auth.google ? new GoogleOAuth(auth.google, redirect('/auth/google')) : undefined)),
  };

  for (const [name, label] of [
    ['github', 'GitHub OAuth2'],
    ['google', 'Google OAuth2'],
  ] as const) {
    const provider = () => {
      const configured = providers[name]?.();
      if (!configured) throw new HttpError(402, 'payment_required', `${label} is not configured`);
      return configured;
    };

    app.get<{ Querystring: { invite?: string; claim?: string } }>(
      `/v0/auth/${name}`,
      { schema: { querystring: urlQuery } },
      async (request, reply) => {
        const chosen = provider();
        const { invite, claim } = request.query;
        const state = mintOAuthState(
          signerOf(context),
          { ...(invite ? { invite } : {}), ...(claim ? { claim } : {}) },
          bindBrowser(request, reply),
          Date.now(),
        );
        try {
          return { url: await chosen.authorizationUrl(state) };
        } catch (error) {
          request.log.warn({ error: (error as Error).message }, `${label} is unreachable`);
          throw new HttpError(502, 'bad_gateway', `${label} is unreachable`);
        }
      },
    );

    app.post<{ Body: { code: string; state: string } }>(
      `/v0/auth/${name}`,
      { schema: { body: oauthBody }, config: { status: 202 } },
      async (request, reply) => {
        const chosen = provider();
        const now = Date.now();
        const read = readOAuthState(signerOf(context), request.body.state, now);
        if (!read.ok) throw new HttpError(401, 'unauthorized', `Invalid OAuth state: ${read.reason}.`);
        if (!sameBrowser(request, reply, read.browser)) {
          throw new HttpError(401, 'unauthorized', 'Invalid OAuth state: this sign-in was started in another browser.');
        }
        if (!(await useTokenOnce(db, read.use.key, read.use.expiresMs, now))) {
          throw new HttpError(401, 'unauthorized', 'Invalid OAuth state: this sign-in was already completed.');
        }
        const { state } = read;
        let identity: OAuthIdentity;
        try {
          identity = await chosen.identity(request.body.code);
        } catch (error) {
          throw new HttpError(401, 'unauthorized', `${label} sign-in failed: ${(error as Error).message}.`);
        }
        const invite = state.invite ? invitationFor(context, state.invite, identity.email, now) : undefined;
        let user = await findUserByEmail(db, identity.email);
        if (user) {
          if (invite) await acceptInvite(db, user, invite, now);
          if (state.claim) {
            await organizationToJoin(db, state.claim, true);
            await claimOrganization(db, state.claim, user.uuid, now);
          }
        } else {
          let joining: Joining = { kind: 'personal' };
          if (invite) {
            await organizationToJoin(db, invite.organization, false);
            joining = { kind: 'invite', invite };
          } else if (state.claim) {
            joining = { kind: 'claim', organization: await organizationToJoin(db, state.claim, true) };
          }
          user = await signUp(
            db,
            { name: userName(identity), slug: identity.handle?.toLowerCase(), email: identity.email },
            joining,
            now,
          );
        }
        return reply.code(202).send({ user: sessionFor(context, user, now) });
      },
    );
  }
}
