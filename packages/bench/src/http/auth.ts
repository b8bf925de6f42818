import { HttpError } from '@atrium/core';
import type { FastifyRequest } from 'fastify';
import { apiKeyKind, obfuscateEmail } from '../auth/api-keys.js';
import { verifyJwt } from '../auth/jwt.js';
import { findLiveApiKey } from '../storage/api-keys.js';
import type { User } from '../storage/types.js';
import { findUserByEmail, findUserByUuid } from '../storage/users.js';
import type { BenchContext } from './context.js';

/** Who is calling: nobody, a user (by JWT or user key), or a project key. */
export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'user'; user: User /** The user key used, when not a JWT. */; keyUuid: string | undefined }
  | { kind: 'project_key'; projectUuid: string };

const ANONYMOUS: Actor = { kind: 'anonymous' };
const HINT = 'Expected format is `Authorization: Bearer <api_key_or_token>`.';

async function userActor(user: User | undefined, label: string, keyUuid: string | undefined): Promise<Actor> {
  if (!user) throw new HttpError(404, 'not_found', `User (${label}) not found`);
  if (user.locked) throw new HttpError(403, 'forbidden', 'Your account has been locked. Please contact support.');
  return { kind: 'user', user, keyUuid };
}

async function resolveActor(context: BenchContext, request: FastifyRequest): Promise<Actor> {
  const header = request.headers.authorization;
  if (header === undefined) return ANONYMOUS;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new HttpError(400, 'bad_request', `Malformed "Authorization" header. ${HINT}`);
  const credential = match[1] as string;
  const { db } = context.database;
  const kind = apiKeyKind(credential);
  if (kind) {
    const key = await findLiveApiKey(db, credential);
    if (!key || key.kind !== kind) throw new HttpError(401, 'unauthorized', 'Invalid API key.');
    if (key.kind === 'run') return { kind: 'project_key', projectUuid: key.project_uuid as string };
    return userActor(await findUserByUuid(db, key.user_uuid as string), 'key owner', key.uuid);
  }
  const check = verifyJwt(credential, context.jwtSecret, context.config.security.issuer, Math.floor(Date.now() / 1000));
  if (!check.ok)
    throw new HttpError(401, 'unauthorized', `Failed to validate JSON Web Token: ${check.reason}. ${HINT}`);
  return userActor(await findUserByEmail(db, check.email), obfuscateEmail(check.email), undefined);
}

const actors = new WeakMap<FastifyRequest, Promise<Actor>>();

/** The caller of this request, resolved once. */
export function actorOf(context: BenchContext, request: FastifyRequest): Promise<Actor> {
  let actor = actors.get(request);
  if (!actor) {
    actor = resolveActor(context, request);
    actors.set(request, actor);
  }
  return actor;
}

/** Endpoints only a user may call (JWT or user key). */
export async function requireUser(context: BenchContext, request: FastifyRequest): Promise<User> {
  const actor = await actorOf(context, request);
  if (actor.kind === 'user') return actor.user;
  if (actor.kind === 'anonymous') {
    throw new HttpError(400, 'bad_request', `Request is missing "Authorization" header. ${HINT}`);
  }
  throw new HttpError(403, 'forbidden', 'Project keys cannot be used on this endpoint.');
}

export async function requireAdmin(context: BenchContext, request: FastifyRequest): Promise<User> {
  const user = await requireUser(context, request);
  if (!user.admin) throw new HttpError(403, 'forbidden', 'Only server admins may use this endpoint.');
  return user;
}
