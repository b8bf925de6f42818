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
 * Password sign-in throttling within 15 minutes: 5 failures for one email address from one client address
 * refuse that pair, 25 for one email address from anywhere refuse the email, and 20 from one client address
 * refuse the address. So one client cannot lock an account's owner out (that takes 25 failures from at least
 * 5 addresses), while guessing one account's password stays slow from anywhere. Unknown email addresses
 * count like known ones, so the refusal tells nothing about which accounts exist. A successful sign-in
 * clears its email address's failures, from its client address and overall; the client address's own
 * failures stay, or one valid account would let its owner keep guessing others' passwords.
 */
export class SignInThrottle {
  readonly attempts = new FailureThrottle(5, WINDOW_MS);
  readonly accounts = new FailureThrottle(25, WINDOW_MS);
  /** Higher than per pair: many people can share one address behind a NAT. */
  readonly addresses = new FailureThrottle(20, WINDOW_MS);

  retryAfterMs(email: string, address: string, now: number): number {
    return Math.max(
      this.attempts.retryAfterMs(pair(email, address), now),
      this.accounts.retryAfterMs(email, now),
      this.addresses.retryAfterMs(address, now),
    );
  }

  failed(email: string, address: string, now: number): void {
    this.attempts.recordFailure(pair(email, address), now);
    this.accounts.recordFailure(email, now);
    this.addresses.recordFailure(address, now);
  }

  succeeded(email: string, address: string): void {
    this.attempts.reset(pair(email, address));
    this.accounts.reset(email);
  }
}

const pair = (email: string, address: string) => `${email}\n${address}`;
