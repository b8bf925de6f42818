import { randomUUID } from 'node:crypto';
import { hashApiKey, type KeyKind } from '../auth/api-keys.js';
import type { Page } from '../wire/pagination.js';
import { type Listed, paged, searchAny } from './list-query.js';
import type { ApiKey, Db } from './types.js';

/** Default key lifetime: Bencher's ~128 years. */
const DEFAULT_TTL_MS = 128 * 365 * 24 * 3600 * 1000;

export async function storeApiKey(
  db: Db,
  input: { kind: KeyKind; key: string; name: string; userUuid?: string; projectUuid?: string; ttlMs?: number },
  now = Date.now(),
): Promise<ApiKey> {
  const row: ApiKey = {
    uuid: randomUUID(),
    kind: input.kind,
    user_uuid: input.userUuid ?? null,
    project_uuid: input.projectUuid ?? null,
    name: input.name,
    key_hash: hashApiKey(input.key),
    creation: now,
    expiration: now + (input.ttlMs ?? DEFAULT_TTL_MS),
    revoked: null,
  };
  await db.insertInto('api_key').values(row).execute();
  return row;
}

/** A live (not revoked, not expired) key by its plaintext. */
export const findLiveApiKey = (db: Db, key: string, now = Date.now()): Promise<ApiKey | undefined> =>
  db
    .selectFrom('api_key')
    .selectAll()
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked', 'is', null)
    .where('expiration', '>', now)
    .executeTakeFirst();

export interface ApiKeyOwner {
  kind: KeyKind;
  /** The user (user keys) or project (run keys) the keys belong to. */
  owner: string;
}

const ownerColumn = (kind: KeyKind) => (kind === 'user' ? 'user_uuid' : 'project_uuid');

export async function listApiKeys(
  db: Db,
  owner: ApiKeyOwner,
  filter: { revoked: boolean; name?: string | undefined; search?: string | undefined; only?: string | undefined },
  page: Page,
): Promise<Listed<ApiKey>> {
  let query = db
    .selectFrom('api_key')
    .where('kind', '=', owner.kind)
    .where(ownerColumn(owner.kind), '=', owner.owner)
    .where('revoked', filter.revoked ? 'is not' : 'is', null);
  if (filter.only !== undefined) query = query.where('uuid', '=', filter.only);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) query = query.where(searchAny(['name', 'uuid'], filter.search));
  return paged(
    query,
    (q) =>
      q
        .selectAll()
        .orderBy('name', page.direction ?? 'asc')
        .orderBy('uuid'),
    page,
  );
}

export const findApiKey = (db: Db, owner: ApiKeyOwner, uuid: string): Promise<ApiKey | undefined> =>
  db
    .selectFrom('api_key')
    .selectAll()
    .where('kind', '=', owner.kind)
    .where(ownerColumn(owner.kind), '=', owner.owner)
    .where('uuid', '=', uuid)
    .executeTakeFirst();

export async function renameApiKey(db: Db, uuid: string, name: string): Promise<void> {
  await db.updateTable('api_key').set({ name }).where('uuid', '=', uuid).execute();
}

/** Revokes a live key; false when it was already revoked (revocation is terminal). */
export async function revokeApiKey(db: Db, uuid: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('api_key')
    .set({ revoked: now })
    .where('uuid', '=', uuid)
    .where('revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
