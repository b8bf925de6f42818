/**
 * Counts requests per key in fixed windows (an hour for sign-up and log-in) and says when a key is over its
 * limit. Memory is bounded: past `maxKeys`, windows that ended are swept, then the oldest keys are dropped.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one attempt; answers the seconds to wait when the key is over its limit, else undefined. */
  hit(key: string, now: number): number | undefined {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      this.bound(now);
    }
    if (window.count >= this.limit) return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    window.count += 1;
    return undefined;
  }

  private bound(now: number): void {
    if (this.windows.size <= this.maxKeys) return;
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
