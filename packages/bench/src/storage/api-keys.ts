import { randomUUID } from 'node:crypto';
import { hashApiKey, type KeyKind } from '../auth/api-keys.js';
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
