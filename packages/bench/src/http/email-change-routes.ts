import { randomUUID } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { mintEmailChangeToken, readEmailChangeToken } from '../auth/email-change-tokens.js';
import { emailChangeConfirmation, emailChangeNotice } from '../mail/email-change.js';
import type { Message } from '../mail/outbox.js';
import { cancelEmailChange, pendingEmailChange, recordEmailChange, takeEmailChange } from '../storage/email-changes.js';
import type { Db, User } from '../storage/types.js';
import { findUserByEmail, updateUser } from '../storage/users.js';
import { toDateTime } from '../wire/time.js';
import { userFor } from './access.js';
import { requireUser } from './auth.js';
import { sessionFor, signerOf } from './auth-session.js';
import type { BenchContext } from './context.js';
import { conflictOnConstraint, notFound } from './problems.js';
import { pathParams } from './schemas.js';

const confirmBody = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 4096 } },
};

type UserParams = { user: string };

const emailTaken = () => new HttpError(409, 'conflict', 'A user with this email already exists.');

/**
 * What `PATCH /v0/users/{user} {email}` does, in its transaction: the account keeps its address, the new one is to
 * get a link to confirm it (valid `auth.confirmTtlSeconds`, once) and the old one a notice; those two mails are
 * answered, to send once committed. Asking for the current address cancels a pending change. Until confirmed,
 * log-in links and OAuth sign-in match the old address only.
 */
export async function requestEmailChange(
  context: BenchContext,
  trx: Db,
  user: User,
  email: string,
): Promise<Message[]> {
  if (email === user.email) {
    await cancelEmailChange(trx, user.uuid);
    return [];
  }
  const other = await findUserByEmail(trx, email);
  if (other && other.uuid !== user.uuid) throw emailTaken();
  const ttlSeconds = context.config.auth.confirmTtlSeconds;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const uuid = randomUUID();
  await recordEmailChange(trx, {
    uuid,
    user_uuid: user.uuid,
    email,
    created: nowSeconds * 1000,
    expires: (nowSeconds + ttlSeconds) * 1000,
  });
  const token = mintEmailChangeToken(signerOf(context), { uuid, email }, nowSeconds, ttlSeconds);
  const text = {
    name: user.name,
    slug: user.slug,
    oldEmail: user.email,
    newEmail: email,
    consoleUrl: context.consoleUrl(),
    ttlMinutes: Math.round(ttlSeconds / 60),
  };
  return [emailChangeConfirmation({ ...text, token }), emailChangeNotice(text)];
}

/**
 * `GET /v0/users/{user}/email/pending` (the pending change, else 404) and `POST /v0/users/{user}/email/confirm
 * {token}`: the user, signed in, confirms with the token mailed to the new address; the address changes if it is
 * still free, and the answer is a new session (Bencher's `JsonAuthUser`), since sessions name the address.
 */
export function registerEmailChangeRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Params: UserParams }>(
    '/v0/users/:user/email/pending',
    { schema: { params: pathParams('user') } },
    async (request) => {
      const user = await userFor(context, await requireUser(context, request), request.params.user);
      const change = await pendingEmailChange(db, user.uuid, Date.now());
      if (!change) throw notFound('Email change', request.params.user);
      return { email: change.email, created: toDateTime(change.created), expiration: toDateTime(change.expires) };
    },
  );

  app.post<{ Params: UserParams; Body: { token: string } }>(
    '/v0/users/:user/email/confirm',
    { schema: { params: pathParams('user'), body: confirmBody }, config: { status: 200 } },
    async (request) => {
      const user = await userFor(context, await requireUser(context, request), request.params.user);
      const now = Date.now();
      const refused = (reason: string) =>
        new HttpError(400, 'bad_request', `Failed to confirm the new email: ${reason}.`);
      const check = readEmailChangeToken(signerOf(context), request.body.token, Math.floor(now / 1000));
      // Not the verifier's words: the console takes a message naming a JSON Web Token for an expired session.
      if (!check.ok) throw refused(check.reason === 'expired' ? 'the link has expired' : 'the link is not valid');
      const changed = await db.transaction().execute(async (trx) => {
        const change = await takeEmailChange(trx, user.uuid, check.uuid, now);
        if (!change || change.email !== check.email) {
          throw refused('this link is not for this account, or it was already used, replaced or cancelled');
        }
        if (await findUserByEmail(trx, change.email)) throw emailTaken();
        await conflictOnConstraint(updateUser(trx, user.uuid, { email: change.email }, now), 'User');
        return { ...user, email: change.email, modified: now };
      });
      return sessionFor(context, changed, now);
    },
  );
}
