import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptInvite, emailTaken, type Joining, organizationToJoin, signUp } from '../auth/accounts.js';
import type { SignupClaim } from '../auth/jwt.js';
import { LoginGuard } from '../auth/login-guard.js';
import { mintConfirmationToken, readConfirmationToken, signupOf } from '../auth/session-tokens.js';
import { confirmationMessage } from '../mail/confirmation.js';
import type { User } from '../storage/types.js';
import { useTokenOnce } from '../storage/used-tokens.js';
import { findUserByEmail } from '../storage/users.js';
import { invitationFor, sessionFor, signerOf } from './auth-session.js';
import type { BenchContext } from './context.js';
import { emailField, nullable, slugField, userNameField } from './schemas.js';
import { browserSignedInTo, rememberBrowser } from './signed-in-browser.js';

const jwtField = { type: 'string', minLength: 1, maxLength: 4096 };
const uuidField = { type: 'string', format: 'uuid' };
/** Accepted and ignored, as a server without Bencher Plus does. */
const plusFields = {
  plan: nullable({ type: 'string', enum: ['free', 'team', 'enterprise'] }),
  recaptcha_token: nullable({ type: 'string', minLength: 1, maxLength: 4096 }),
};

const signupBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'i_agree'],
  properties: {
    name: userNameField,
    slug: nullable(slugField),
    email: emailField,
    i_agree: { type: 'boolean' },
    invite: nullable(jwtField),
    claim: nullable(uuidField),
    ...plusFields,
  },
};
const loginBody = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: emailField, invite: nullable(jwtField), ...plusFields },
};
const confirmBody = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: jwtField },
};

type SignupBody = {
  name: string;
  slug?: string | null;
  email: string;
  i_agree: boolean;
  invite?: string | null;
  claim?: string | null;
};
type LoginBody = { email: string; invite?: string | null };

/**
 * Bencher's sign-up and log-in by emailed link: `POST /v0/auth/signup` and `/v0/auth/login` answer 202 and mail a
 * confirmation link (an `auth` JWT, single-use, 30 minutes) to the console's confirm page; `POST /v0/auth/confirm`
 * exchanges it for a session (`client` JWT). A sign-up's link carries the account, which is created only when the
 * link is followed (an unfollowed sign-up leaves nothing behind). Log-in answers the same whether or not the
 * account exists (except with an invitation for an address no account has: 404, sign up instead), and mails in
 * the background so it takes as long. Both are limited by `LoginGuard`: 429, except
 * that a log-in past the caps strangers share is answered 202 and mails at most one link per half a link's lifetime.
 */
export function registerAuthRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const { auth } = context.config;
  // Past the strangers' caps, a log-in link still goes to its mailbox once per half a link's lifetime.
  const limits = new LoginGuard(auth, auth.sessionTtlSeconds * 1000, (auth.confirmTtlSeconds * 1000) / 2);

  /** The limits' verdict on a request; 429 when it may not go on (a log-in goes on past the strangers' caps). */
  function guard(request: FastifyRequest, reply: FastifyReply, email: string, now: number, login: boolean) {
    const verdict = limits.hit(email, request.ip, now, browserSignedInTo(context, request, email));
    if (verdict.kind === 'mail' || (verdict.kind === 'capped' && login)) return verdict;
    reply.header('retry-after', String(verdict.seconds));
    throw new HttpError(429, 'too_many_requests', 'Too many sign-up or log-in requests; try again later.');
  }

  const confirmation = (user: Pick<User, 'email' | 'name'>, now: number, signup?: SignupClaim) => {
    const minted = mintConfirmationToken(signerOf(context), user.email, auth.confirmTtlSeconds, now, signup);
    return confirmationMessage({
      email: user.email,
      name: user.name,
      purpose: signup ? 'signup' : 'login',
      token: minted.token,
      consoleUrl: context.consoleUrl(),
      ttlMinutes: Math.round(auth.confirmTtlSeconds / 60),
    });
  };

  app.post<{ Body: SignupBody }>(
    '/v0/auth/signup',
    { schema: { body: signupBody }, config: { status: 202 } },
    async (request, reply) => {
      const now = Date.now();
      const body = request.body;
      if (body.i_agree !== true) {
        throw new HttpError(403, 'forbidden', 'You must agree to the terms of use to sign up.');
      }
      guard(request, reply, body.email, now, false);
      if (await findUserByEmail(db, body.email)) throw emailTaken();
      if (body.invite) {
        await organizationToJoin(db, invitationFor(context, body.invite, body.email, now).organization, false);
      } else if (body.claim) await organizationToJoin(db, body.claim, true);
      const signup: SignupClaim = {
        name: body.name,
        ...(body.slug ? { slug: body.slug } : {}),
        ...(body.invite ? { invite: body.invite } : body.claim ? { claim: body.claim } : {}),
      };
      await context.mail.send(confirmation(body, now, signup));
      return reply.code(202).send({ email: body.email });
    },
  );

  app.post<{ Body: LoginBody }>(
    '/v0/auth/login',
    { schema: { body: loginBody }, config: { status: 202 } },
    async (request, reply) => {
      const now = Date.now();
      const { email } = request.body;
      const verdict = guard(request, reply, email, now, true);
      const invite = request.body.invite ? invitationFor(context, request.body.invite, email, now) : undefined;
      const user = await findUserByEmail(db, email);
      // The invitation names this address, so saying that no account has it tells its holder nothing new.
      if (invite && !user) {
        throw new HttpError(
          404,
          'not_found',
          'No account has this email address yet: sign up with this invitation instead, and you join the organization.',
        );
      }
      if (user && !user.locked) {
        if (invite) await acceptInvite(db, user, invite, now);
        if (limits.mailsLogin(email, verdict, now)) context.mail.sendInBackground(confirmation(user, now));
      }
      return reply.code(202).send({ email });
    },
  );

  /** The account a followed sign-up link asks for; a claim taken meanwhile leaves a personal organisation. */
  async function signedUp(email: string, signup: SignupClaim, now: number): Promise<User> {
    let joining: Joining = { kind: 'personal' };
    if (signup.invite) joining = { kind: 'invite', invite: invitationFor(context, signup.invite, email, now) };
    if (joining.kind === 'invite') await organizationToJoin(db, joining.invite.organization, false);
    else if (signup.claim) joining = { kind: 'claim', organization: await organizationToJoin(db, signup.claim, false) };
    return signUp(db, { name: signup.name, slug: signup.slug, email }, joining, now);
  }

  app.post<{ Body: { token: string } }>(
    '/v0/auth/confirm',
    { schema: { body: confirmBody } },
    async (request, reply) => {
      const now = Date.now();
      const { token } = request.body;
      const check = readConfirmationToken(signerOf(context), token, now);
      if (!check.ok)
        throw new HttpError(401, 'unauthorized', `Failed to validate the confirmation token: ${check.reason}.`);
      if (!(await useTokenOnce(db, check.use.key, check.use.expiresMs, now))) {
        throw new HttpError(401, 'unauthorized', 'This confirmation token has already been used; log in again.');
      }
      const signup = signupOf(check.claims);
      const user = (await findUserByEmail(db, check.email)) ?? (signup && (await signedUp(check.email, signup, now)));
      if (!user) throw new HttpError(401, 'unauthorized', 'Failed to validate the confirmation token: no such user.');
      const session = sessionFor(context, user, now);
      limits.followed(user.email, request.ip, now);
      rememberBrowser(context, request, reply, user.email);
      return session;
    },
  );
}
