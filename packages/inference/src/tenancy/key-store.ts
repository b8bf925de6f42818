import type { Kysely } from 'kysely';
import { findApiKeyByHash } from '../storage/api-keys.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { type ActiveKey, toActiveKey } from './active-key.js';
import { hashSecret } from './secrets.js';

/**
 * Cached keys are re-read after this long, so a revocation reaches every route (`/v1/models` included) of
 * every process within a second; the process that revokes drops the key at once (see `forget`).
 */
const TTL_MS = 500;
const MAX_ENTRIES = 10_000;

/**
 * Looks keys up by the hash of the presented secret, with a small cache in front of the database.
 * Admission re-checks revocation in the database on every generation request (see `ledger.ts`).
 */
export class KeyStore {
  private readonly cache = new Map<string, { key: ActiveKey; until: number }>();

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly clock: () => number = Date.now,
  ) {}

  async lookup(secret: string): Promise<ActiveKey | undefined> {
    const hash = hashSecret(secret);
    const now = this.clock();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.key;
    const row = await findApiKeyByHash(this.db, hash);
    if (!row || row.revoked !== null) {
      this.cache.delete(hash);
      return undefined;
    }
    const key = toActiveKey(row);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { key, until: now + TTL_MS });
    return key;
  }

  /** Drops a key from the cache (revoked here, or found revoked by admission). */
  forget(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.key.id === keyId) this.cache.delete(hash);
  }
}
