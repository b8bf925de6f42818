/**
 * Caches the results of expensive aggregate queries (totals, type counts, statistics). Archives are
 * immutable, so their entries never expire; a live PostgreSQL profile gets a short time-to-live.
 * Concurrent callers of the same key share one query.
 */
export class QueryMemo {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 4096,
  ) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = compute();
    value.catch(() => this.entries.delete(key));
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { at: now, value });
    return value;
  }
}
