import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type UserChanges, updateUser } from '../storage/users.js';
import { jsonUser } from '../wire/json.js';
import type { PaginationQuery } from '../wire/pagination.js';
import { userFor } from './access.js';
import { requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { requestEmailChange } from './email-change-routes.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint, notFound } from './problems.js';
import { emailField, listQuery, nullable, pathParams, resourceName, slugField } from './schemas.js';

const userPatch = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: nullable(resourceName),
    slug: nullable(slugField),
    email: nullable(emailField),
    admin: nullable({ type: 'boolean' }),
    locked: nullable({ type: 'boolean' }),
  },
};

const tokenBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: resourceName, ttl: nullable({ type: 'integer', minimum: 0, maximum: 4294967295 }) },
};

type UserPatch = { [K in 'name' | 'slug' | 'email']?: string | null } & {
  admin?: boolean | null;
  locked?: boolean | null;
};
type UserParams = { user: string };
type TokenParams = UserParams & { token: string };

function changesOf(patch: UserPatch): UserChanges {
  const changes: UserChanges = {};
  if (patch.name != null) changes.name = patch.name;
  if (patch.slug != null) changes.slug = patch.slug;
  if (patch.admin != null) changes.admin = patch.admin ? 1 : 0;
  if (patch.locked != null) changes.locked = patch.locked ? 1 : 0;
  return changes;
}

/**
 * `/v0/users/{user}` and its deprecated API tokens. A new `email` waits for confirmation from that address
 * (`email-change-routes.ts`): the answer shows the address unchanged, as it still is. Bencher replaced user tokens
 * with user API keys (`/v0/users/{user}/keys`): creating one answers 403, and as none can exist the list is empty
 * and every single token is 404.
 */
export function registerUserRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Params: UserParams }>('/v0/users/:user', { schema: { params: pathParams('user') } }, async (request) =>
    jsonUser(await userFor(context, await requireUser(context, request), request.params.user)),
  );

  app.patch<{ Params: UserParams; Body: UserPatch }>(
    '/v0/users/:user',
    { schema: { params: pathParams('user'), body: userPatch } },
    async (request) => {
      const caller = await requireUser(context, request);
      const user = await userFor(context, caller, request.params.user);
      const changes = changesOf(request.body);
      if ((changes.admin !== undefined || changes.locked !== undefined) && !caller.admin) {
        throw new HttpError(403, 'forbidden', 'Only server admins may change whether a user is an admin or locked.');
      }
      const updated = { ...user, ...changes };
      const { email } = request.body;
      const mails = await db.transaction().execute(async (trx) => {
        await conflictOnConstraint(updateUser(trx, user.uuid, changes), 'User');
        return email == null ? [] : requestEmailChange(context, trx, updated, email);
      });
      for (const mail of mails) await context.mail.send(mail);
      return jsonUser(updated);
    },
  );

  app.get<{ Params: UserParams; Querystring: PaginationQuery }>(
    '/v0/users/:user/tokens',
    { schema: { params: pathParams('user'), querystring: listQuery(['name'], { revoked: { type: 'boolean' } }) } },
    async (request, reply) => {
      await userFor(context, await requireUser(context, request), request.params.user);
      return sendList(reply, [], 0);
    },
  );

  app.post<{ Params: UserParams }>(
    '/v0/users/:user/tokens',
    { schema: { params: pathParams('user'), body: tokenBody } },
    async (request) => {
      await userFor(context, await requireUser(context, request), request.params.user);
      throw new HttpError(
        403,
        'forbidden',
        `User API tokens are deprecated. Create a user API key instead: POST /v0/users/${request.params.user}/keys`,
      );
    },
  );

  const tokenSchema = { params: pathParams('user', 'token') };
  const noToken = async (request: FastifyRequest<{ Params: TokenParams }>) => {
    await userFor(context, await requireUser(context, request), request.params.user);
    throw notFound('Token', request.params.token);
  };
  app.get<{ Params: TokenParams }>('/v0/users/:user/tokens/:token', { schema: tokenSchema }, noToken);
  app.patch<{ Params: TokenParams }>(
    '/v0/users/:user/tokens/:token',
    {
      schema: {
        ...tokenSchema,
        body: { type: 'object', additionalProperties: false, properties: { name: nullable(resourceName) } },
      },
    },
    noToken,
  );
  app.delete<{ Params: TokenParams }>('/v0/users/:user/tokens/:token', { schema: tokenSchema }, noToken);
}
