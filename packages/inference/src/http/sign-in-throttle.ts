/** At most this many keys are remembered; past it the oldest are forgotten first. */
const MAX_KEYS = 100_000;

/**
 * Counts failures per key in a sliding window: once `limit` failures fall within `windowMs`, the key is refused
 * until the oldest of them leaves the window. Kept in this process's memory only: each gateway process counts
 * on its own, and a restart forgets.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfterMs(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    return (recent[recent.length - this.limit] as number) + this.windowMs - now;
  }

  recordFailure(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.delete(key); // re-inserted last: the map stays ordered by latest failure
    this.failures.set(key, recent.slice(-this.limit));
    if (this.failures.size > MAX_KEYS) this.forgetOldest(now);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private forgetOldest(now: number): void {
    for (const [key, times] of this.failures) {
      if (this.failures.size <= MAX_KEYS && (times.at(-1) ?? 0) > now - this.windowMs) return;
      this.failures.delete(key);
    }
  }
}

const WINDOW_MS = 15 * 60_000;

/**
 * Password sign-in throttling: 5 failures for one email address, or 20 from one client address, within 15 minutes
 * refuse further attempts until the window frees up. Unknown email addresses count like known ones, so the
 * refusal tells nothing about which accounts exist. A successful sign-in clears its email address's failures;
 * the client address's stay, or one valid account would let its owner keep guessing others' passwords.
 */
export class SignInThrottle {
  readonly accounts = new FailureThrottle(5, WINDOW_MS);
  /** Higher: many people can share one address behind a NAT. */
  readonly addresses = new FailureThrottle(20, WINDOW_MS);

  retryAfterMs(email: string, address: string, now: number): number {
    return Math.max(this.accounts.retryAfterMs(email, now), this.addresses.retryAfterMs(address, now));
  }

  failed(email: string, address: string, now: number): void {
    this.accounts.recordFailure(email, now);
    this.addresses.recordFailure(address, now);
  }

  succeeded(email: string): void {
    this.accounts.reset(email);
  }
}
