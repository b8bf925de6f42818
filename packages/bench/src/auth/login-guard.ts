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

/**
 * The mailbox an address delivers to, as far as limits go: lower-cased, without a `+tag` in the local part
 * (`Alice+1@Example.org` → `alice@example.org`). Provider-specific rules (Gmail ignoring dots) are not applied.
 */
export function mailboxOf(email: string): string {
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf('@');
  const local = at === -1 ? lower : lower.slice(0, at);
  const plus = local.indexOf('+');
  return plus <= 0 ? lower : `${local.slice(0, plus)}${lower.slice(at)}`;
}

/** Remembers keys (which address followed a link for which mailbox; which mailbox got a link) for `ttlMs`; bounded like the limiter. */
class ConfirmedAddresses {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  add(key: string, now: number): void {
    this.until.delete(key); // re-inserted last: the map stays ordered by latest confirmation
    this.until.set(key, now + this.ttlMs);
    for (const oldest of this.until.keys()) {
      if (this.until.size <= this.maxKeys) break;
      this.until.delete(oldest);
    }
  }

  has(key: string, now: number): boolean {
    return (this.until.get(key) ?? 0) > now;
  }
}

export interface LoginLimits {
  /** Sign-up and log-in requests from one client address. */
  loginsPerAddressPerHour: number;
  /** … for one mailbox from one client address. */
  loginsPerMailboxPerAddressPerHour: number;
  /** … for one mailbox from the client addresses that never followed a link for it. */
  loginsPerMailboxPerHour: number;
  /** … for any mailbox from client addresses that never followed a link for it. */
  loginsPerHour: number;
}

const HOUR_MS = 3_600_000;
const pair = (mailbox: string, address: string) => `${mailbox}\n${address}`;

/**
 * What the limits say of one sign-up or log-in request:
 * - `mail`: send the link;
 * - `wait`: the requester's own limits (its address, its address for this mailbox) are spent: 429;
 * - `capped`: the caps strangers share (this mailbox, everything) are spent. A sign-up then gets 429, but a
 *   log-in never does: its link goes out only when none went to the mailbox within `holdMs` (so a link still
 *   valid for at least `holdMs` is waiting there, whoever asked for it), and the answer is the usual 202.
 */
export type LoginVerdict = { kind: 'mail' } | { kind: 'wait'; seconds: number } | { kind: 'capped'; seconds: number };

/**
 * The limits on sign-up and log-in, each of which mails a link. Every request counts against its client address
 * and its (mailbox, address) pair. Requests from addresses that have not followed a link for the mailbox (within
 * `rememberMs`), and not from a browser that did, also count against the mailbox and against everything: those two
 * caps bound the mail strangers can cause, from any number of addresses and `+tag` spellings. They never lock the
 * owner out: past them a log-in link is still mailed once per `holdMs` (see `LoginVerdict`), and an owner where
 * they signed in before is not held by them at all. Counters live in this process.
 */
export class LoginGuard {
  private readonly perAddress: AttemptLimiter;
  private readonly perPair: AttemptLimiter;
  private readonly perMailbox: AttemptLimiter;
  private readonly overall: AttemptLimiter;
  private readonly confirmed: ConfirmedAddresses;
  /** When a log-in link last went to each mailbox (kept for `holdMs`). */
  private readonly linkSent: ConfirmedAddresses;

  constructor(limits: LoginLimits, rememberMs: number, holdMs: number) {
    this.perAddress = new AttemptLimiter(limits.loginsPerAddressPerHour, HOUR_MS);
    this.perPair = new AttemptLimiter(limits.loginsPerMailboxPerAddressPerHour, HOUR_MS);
    this.perMailbox = new AttemptLimiter(limits.loginsPerMailboxPerHour, HOUR_MS);
    this.overall = new AttemptLimiter(limits.loginsPerHour, HOUR_MS);
    this.confirmed = new ConfirmedAddresses(rememberMs);
    this.linkSent = new ConfirmedAddresses(holdMs);
  }

  /**
   * Counts a request to mail `email`.
   * `fromOwnersBrowser`: the request comes from a browser that followed a link for this mailbox.
   */
  hit(email: string, address: string, now: number, fromOwnersBrowser = false): LoginVerdict {
    const mailbox = mailboxOf(email);
    const wait = this.perAddress.hit(address, now) ?? this.perPair.hit(pair(mailbox, address), now);
    if (wait !== undefined) return { kind: 'wait', seconds: wait };
    if (fromOwnersBrowser || this.confirmed.has(pair(mailbox, address), now)) return { kind: 'mail' };
    const capped = this.perMailbox.hit(mailbox, now) ?? this.overall.hit('', now);
    return capped === undefined ? { kind: 'mail' } : { kind: 'capped', seconds: capped };
  }

  /** Whether a log-in with this verdict mails its link; if it does, the link counts as the mailbox's latest. */
  mailsLogin(email: string, verdict: LoginVerdict, now: number): boolean {
    const mailbox = mailboxOf(email);
    if (verdict.kind === 'wait') return false;
    if (verdict.kind === 'capped' && this.linkSent.has(mailbox, now)) return false;
    this.linkSent.add(mailbox, now);
    return true;
  }

  /** A link for `email` was followed from `address`. */
  followed(email: string, address: string, now: number): void {
    this.confirmed.add(pair(mailboxOf(email), address), now);
  }
}
