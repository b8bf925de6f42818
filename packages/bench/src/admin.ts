import { join } from 'node:path';
import { HttpError } from '@atrium/core';
import { generateApiKey } from './auth/api-keys.js';
import { mintJwt } from './auth/jwt.js';
import type { BenchConfig } from './config.js';
import { jwtSecretFor } from './jwt-secret.js';
import { storeApiKey } from './storage/api-keys.js';
import { createOrganization } from './storage/organizations.js';
import { findProject } from './storage/projects.js';
import { type Db, inTransaction, type User } from './storage/types.js';
import { countUsers, createUser, findUserByEmail } from './storage/users.js';
import { isSlug, parseResourceId, slugify } from './wire/slug.js';

/** Operator tasks behind `atrium bench admin`, usable before sign-up flows exist. */

export const benchDatabaseUrl = (config: BenchConfig, dataDir: string): string =>
  config.database ?? `sqlite:${join(dataDir, 'bench.db')}`;

/** Creates a user with a personal organisation they lead; the first user ever is a server admin. */
export async function createUserAccount(
  db: Db,
  input: { name: string; email: string; slug?: string | undefined; admin?: boolean | undefined },
): Promise<User> {
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) throw new HttpError(400, 'bad_request', 'invalid email address');
  if (input.slug !== undefined && !isSlug(input.slug)) throw new HttpError(400, 'bad_request', 'invalid slug');
  return inTransaction(db, async (trx) => {
    if (await findUserByEmail(trx, input.email)) throw new HttpError(409, 'conflict', 'a user with this email exists');
    const admin = input.admin === true || (await countUsers(trx)) === 0;
    const slug = input.slug ?? (slugify(input.name) || 'user');
    const user = await createUser(trx, { name: input.name, slug, email: input.email, admin });
    await createOrganization(trx, { name: input.name, slug, leader: user.uuid });
    return user;
  });
}

export type CredentialKind = 'jwt' | 'user-key' | 'project-key';

export interface CredentialRequest {
  email: string;
  kind: CredentialKind;
  /** The project of a project key (slug or UUID). */
  project?: string | undefined;
  name?: string | undefined;
  ttlSeconds?: number | undefined;
}

const DEFAULT_JWT_TTL_SECONDS = 30 * 24 * 3600;

/** Mints an `api_key` JWT, or issues a user or project API key (stored hashed); returns the secret once. */
export async function issueCredential(
  db: Db,
  config: BenchConfig,
  dataDir: string,
  request: CredentialRequest,
  now = Date.now(),
): Promise<string> {
  const user = await findUserByEmail(db, request.email);
  if (!user) throw new HttpError(404, 'not_found', 'no user with this email');
  if (request.kind === 'jwt') {
    const iat = Math.floor(now / 1000);
    return mintJwt(
      {
        aud: 'api_key',
        iat,
        exp: iat + (request.ttlSeconds ?? DEFAULT_JWT_TTL_SECONDS),
        iss: config.security.issuer,
        sub: user.email,
      },
      jwtSecretFor(config, dataDir),
    );
  }
  const ttlMs = request.ttlSeconds === undefined ? undefined : request.ttlSeconds * 1000;
  if (request.kind === 'user-key') {
    const key = generateApiKey('user');
    await storeApiKey(db, { kind: 'user', key, name: request.name ?? 'admin-issued', userUuid: user.uuid, ttlMs }, now);
    return key;
  }
  if (!request.project) throw new HttpError(400, 'bad_request', 'a project key needs --project');
  const project = await findProject(db, parseResourceId(request.project));
  if (!project) throw new HttpError(404, 'not_found', `no project ${request.project}`);
  const key = generateApiKey('run');
  await storeApiKey(
    db,
    { kind: 'run', key, name: request.name ?? 'admin-issued', userUuid: user.uuid, projectUuid: project.uuid, ttlMs },
    now,
  );
  return key;
}
