import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptInvite, type Joining, organizationToJoin, signUp } from '../auth/accounts.js';
import { AttemptLimiter } from '../auth/login-guard.js';
import { mintConfirmationToken, readConfirmationToken } from '../auth/session-tokens.js';
import { confirmationMessage } from '../mail/confirmation.js';
import type { User } from '../storage/types.js';
import { useTokenOnce } from '../storage/used-tokens.js';
import { findUserByEmail } from '../storage/users.js';
import { invitationFor, sessionFor, signerOf, tokenHash } from './auth-session.js';
import type { BenchContext } from './context.js';
import { emailField, nullable, slugField, userNameField } from './schemas.js';

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

const HOUR_MS = 3_600_000;

/**
 * Bencher's sign-up and log-in by emailed link: `POST /v0/auth/signup` and `/v0/auth/login` answer 202 and mail a
 * confirmation link (an `auth` JWT, single-use, 30 minutes) to the console's confirm page; `POST /v0/auth/confirm`
 * exchanges it for a session (`client` JWT). Log-in answers the same whether or not the account exists, and
 * mails in the background so it takes as long. Both are limited per email and per client address (429).
 */
export function registerAuthRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const { auth } = context.config;
  const perEmail = new AttemptLimiter(auth.loginsPerEmailPerHour, HOUR_MS);
  const perAddress = new AttemptLimiter(auth.loginsPerAddressPerHour, HOUR_MS);

  function guard(request: FastifyRequest, reply: FastifyReply, email: string, now: number): void {
    const wait = perAddress.hit(request.ip, now) ?? perEmail.hit(email.toLowerCase(), now);
    if (wait === undefined) return;
    reply.header('retry-after', String(wait));
    throw new HttpError(429, 'too_many_requests', 'Too many sign-up or log-in requests; try again later.');
  }

  const confirmation = (user: User, purpose: 'signup' | 'login', now: number) => {
    const minted = mintConfirmationToken(signerOf(context), user.email, auth.confirmTtlSeconds, now);
    return confirmationMessage({
      email: user.email,
      name: user.name,
      purpose,
      token: minted.token,
      consoleUrl: context.config.consoleUrl,
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
      guard(request, reply, body.email, now);
      let joining: Joining = { kind: 'personal' };
      if (body.invite) joining = { kind: 'invite', invite: invitationFor(context, body.invite, body.email, now) };
      if (joining.kind === 'invite') await organizationToJoin(db, joining.invite.organization, false);
      else if (body.claim) joining = { kind: 'claim', organization: await organizationToJoin(db, body.claim, true) };
      const user = await signUp(db, { name: body.name, slug: body.slug ?? undefined, email: body.email }, joining, now);
      await context.mail.send(confirmation(user, 'signup', now));
      return reply.code(202).send({ email: user.email });
    },
  );

  app.post<{ Body: LoginBody }>(
    '/v0/auth/login',
    { schema: { body: loginBody }, config: { status: 202 } },
    async (request, reply) => {
      const now = Date.now();
      const { email } = request.body;
      guard(request, reply, email, now);
      const invite = request.body.invite ? invitationFor(context, request.body.invite, email, now) : undefined;
      const user = await findUserByEmail(db, email);
      if (user && !user.locked) {
        if (invite) await acceptInvite(db, user, invite, now);
        context.mail.sendInBackground(confirmation(user, 'login', now));
      }
      return reply.code(202).send({ email });
    },
  );

  app.post<{ Body: { token: string } }>('/v0/auth/confirm', { schema: { body: confirmBody } }, async (request) => {
    const now = Date.now();
    const { token } = request.body;
    const check = readConfirmationToken(signerOf(context), token, now);
    if (!check.ok)
      throw new HttpError(401, 'unauthorized', `Failed to validate the confirmation token: ${check.reason}.`);
    const expires = (check.claims.exp as number) * 1000;
    if (!(await useTokenOnce(db, tokenHash(token), expires, now))) {
      throw new HttpError(401, 'unauthorized', 'This confirmation token has already been used; log in again.');
    }
    const user = await findUserByEmail(db, check.email);
    if (!user) throw new HttpError(401, 'unauthorized', 'Failed to validate the confirmation token: no such user.');
    return sessionFor(context, user, now);
  });
}
