import type { Kysely } from 'kysely';
import { findApiKeyByHash } from '../storage/api-keys.js';
import { grantCoverage } from '../storage/projects.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { type ActiveKey, accessUntil, toActiveKey } from './active-key.js';
import { hashSecret } from './secrets.js';

/**
 * Cached keys are re-read after this long, so a revocation or an edit reaches every route (`/v1/models`
 * included) of every process within a second; the process that changes a key drops it at once (see `forget`).
 */
const TTL_MS = 500;
const MAX_ENTRIES = 10_000;

/**
 * Looks keys up by the hash of the presented secret, with a small cache in front of the database. A cached key
 * is re-read once its grant or expiry has passed, so an ended grant is seen at once and a renewed one too.
 * Admission re-checks revocation in the database on every generation request (see `ledger.ts`).
 */
export class KeyStore {
  private readonly cache = new Map<string, { key: ActiveKey; until: number }>();

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    readonly clock: () => number = Date.now,
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
    const key = toActiveKey(row, await grantCoverage(this.db, row.project_id, now));
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    const until = accessUntil(key);
    this.cache.set(hash, { key, until: until > now ? Math.min(now + TTL_MS, until) : now + TTL_MS });
    return key;
  }

  /** Drops a key from the cache (revoked, edited or rotated here, or found revoked by admission). */
  forget(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.key.id === keyId) this.cache.delete(hash);
  }
}
