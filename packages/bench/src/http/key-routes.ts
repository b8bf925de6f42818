import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { generateApiKey, type KeyKind } from '../auth/api-keys.js';
import {
  type ApiKeyOwner,
  findApiKey,
  listApiKeys,
  renameApiKey,
  revokeApiKey,
  storeApiKey,
} from '../storage/api-keys.js';
import type { ApiKey } from '../storage/types.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { isUuid } from '../wire/slug.js';
import { toDateTime, toOptionalDateTime } from '../wire/time.js';
import { projectFor, userFor } from './access.js';
import { actorOf, requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { notFound } from './problems.js';
import { listQuery, pathParams, resourceName } from './schemas.js';

const newKey = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: resourceName, ttl: { type: 'integer', minimum: 1, maximum: 4294967295 } },
};
const keyPatch = { type: 'object', additionalProperties: false, properties: { name: resourceName } };

const ownerField = (row: ApiKey) =>
  row.kind === 'user' ? { user: row.user_uuid as string } : { project: row.project_uuid as string };

export const keyJson = (row: ApiKey) => ({
  uuid: row.uuid,
  ...ownerField(row),
  name: row.name,
  ...(row.kind === 'run' ? { creator: row.user_uuid } : {}),
  creation: toDateTime(row.creation),
  expiration: toDateTime(row.expiration),
  revoked: toOptionalDateTime(row.revoked),
});

/** Whose keys a path names, and which single key a user-key caller is confined to. */
interface KeyScope {
  owner: ApiKeyOwner;
  creator: string;
  /** A user key may only see, rename or revoke itself, and never create keys. */
  confinedTo: string | undefined;
}

interface KeyRoutes {
  kind: KeyKind;
  collection: string;
  params: string[];
  scope(request: FastifyRequest): Promise<KeyScope>;
}

function registerKeyRoutes(app: FastifyInstance, context: BenchContext, routes: KeyRoutes): void {
  const { db } = context.database;
  const item = `${routes.collection}/:key`;
  type Params = Record<string, string>;

  async function keyFor(request: FastifyRequest<{ Params: Params }>) {
    const scope = await routes.scope(request);
    const id = request.params.key as string;
    const row = isUuid(id) ? await findApiKey(db, scope.owner, id.toLowerCase()) : undefined;
    if (!row || (scope.confinedTo !== undefined && scope.confinedTo !== row.uuid)) throw notFound('API key', id);
    return row;
  }

  app.get<{ Params: Params; Querystring: PaginationQuery & { name?: string; search?: string; revoked?: boolean } }>(
    routes.collection,
    {
      schema: {
        params: pathParams(...routes.params),
        querystring: listQuery(['name'], { revoked: { type: 'boolean' } }),
      },
    },
    async (request, reply) => {
      const scope = await routes.scope(request);
      const { name, search, revoked } = request.query;
      const listed = await listApiKeys(
        db,
        scope.owner,
        { revoked: revoked === true, name, search, only: scope.confinedTo },
        pageOf(request.query),
      );
      return sendList(reply, listed.rows.map(keyJson), listed.total);
    },
  );

  app.post<{ Params: Params; Body: { name: string; ttl?: number } }>(
    routes.collection,
    { schema: { params: pathParams(...routes.params), body: newKey } },
    async (request, reply) => {
      const scope = await routes.scope(request);
      if (scope.confinedTo !== undefined) {
        throw new HttpError(403, 'forbidden', 'An API key cannot create keys; authenticate with a JSON Web Token.');
      }
      const key = generateApiKey(routes.kind);
      const row = await storeApiKey(db, {
        kind: routes.kind,
        key,
        name: request.body.name,
        userUuid: scope.creator,
        projectUuid: routes.kind === 'run' ? scope.owner.owner : undefined,
        ttlMs: request.body.ttl === undefined ? undefined : request.body.ttl * 1000,
      });
      const {
        revoked: _revoked,
        creator: _creator,
        ...created
      } = keyJson(row) as ReturnType<typeof keyJson> & {
        creator?: unknown;
      };
      return reply.code(201).send({ ...created, key });
    },
  );

  app.get<{ Params: Params }>(item, { schema: { params: pathParams(...routes.params, 'key') } }, async (request) =>
    keyJson(await keyFor(request)),
  );

  app.patch<{ Params: Params; Body: { name?: string } }>(
    item,
    { schema: { params: pathParams(...routes.params, 'key'), body: keyPatch } },
    async (request) => {
      const row = await keyFor(request);
      if (request.body.name !== undefined) await renameApiKey(db, row.uuid, request.body.name);
      return keyJson({ ...row, name: request.body.name ?? row.name });
    },
  );

  app.delete<{ Params: Params }>(
    item,
    { schema: { params: pathParams(...routes.params, 'key') } },
    async (request, reply) => {
      const row = await keyFor(request);
      if (!(await revokeApiKey(db, row.uuid))) throw new HttpError(409, 'conflict', 'This API key is already revoked.');
      return reply.code(204).send();
    },
  );
}

/** Project keys (`manage` on the project) and user keys (the user themselves or an admin). */
export function registerApiKeyRoutes(app: FastifyInstance, context: BenchContext): void {
  registerKeyRoutes(app, context, {
    kind: 'run',
    collection: '/v0/projects/:project/keys',
    params: ['project'],
    async scope(request) {
      const user = await requireUser(context, request);
      const { project } = await projectFor(
        context,
        request,
        (request.params as { project: string }).project,
        'manage',
        {
          userOnly: true,
        },
      );
      return { owner: { kind: 'run', owner: project.uuid }, creator: user.uuid, confinedTo: undefined };
    },
  });
  registerKeyRoutes(app, context, {
    kind: 'user',
    collection: '/v0/users/:user/keys',
    params: ['user'],
    async scope(request) {
      const caller = await requireUser(context, request);
      const user = await userFor(context, caller, (request.params as { user: string }).user);
      const actor = await actorOf(context, request);
      const confinedTo = actor.kind === 'user' ? actor.keyUuid : undefined;
      return { owner: { kind: 'user', owner: user.uuid }, creator: user.uuid, confinedTo };
    },
  });
}
