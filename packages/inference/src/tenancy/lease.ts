/** How far ahead a lease covers the recent rate of use. */
export const LEASE_HORIZON_MS = 200;
/** A lease takes at most this share of what the database has left, so other processes keep the rest. */
export const LEASE_SHARE = 8;

/**
 * The amount to lease for one dimension: what the request needs, or more when the recent rate asks for it,
 * but never more than a share of the known headroom (then exactly what is needed, however little is left).
 */
export function chunkFor(need: number, ratePerMs: number, headroom: number): number {
  const wanted = Math.ceil(ratePerMs * LEASE_HORIZON_MS);
  return Math.max(need, Math.min(wanted, Math.floor(headroom / LEASE_SHARE)));
}

/**
 * Counters this process has reserved in the database but not yet given to a request: a key's tokens in its
 * period, or a resource's credits and per-minute requests and tokens. Dimensions marked windowed belong to
 * one window (a period, a minute); what was held for an earlier window is void, as the database starts the
 * new window at zero. Requests take from the lease synchronously; the database is only visited to refill it
 * and to give back what is left.
 */
export class Lease {
  private window = Number.NEGATIVE_INFINITY;
  readonly held: number[];
  /** What the database had left after the last refill, beyond what this lease holds. */
  readonly headroom: number[];
  private readonly consumed: number[];
  private readonly rate: number[];
  private lastChunk: number[];
  lastRefill = 0;
  lastUse = 0;
  /** The refill under way; requests that find the lease short wait for it. */
  refilling: Promise<boolean> | undefined;

  constructor(private readonly windowed: readonly boolean[]) {
    const zeros = () => windowed.map(() => 0);
    this.held = zeros();
    this.headroom = windowed.map(() => Number.POSITIVE_INFINITY);
    this.consumed = zeros();
    this.rate = zeros();
    this.lastChunk = zeros();
  }

  get currentWindow(): number {
    return this.window;
  }

  private roll(window: number): void {
    if (window <= this.window) return;
    this.window = window;
    this.windowed.forEach((isWindowed, i) => {
      if (!isWindowed) return;
      this.held[i] = 0;
      this.headroom[i] = Number.POSITIVE_INFINITY;
    });
  }

  /** Records a use in `window` that went past the lease (reserved in the database directly). */
  used(window: number, now: number): void {
    this.roll(window);
    this.lastUse = now;
  }

  /** Takes `need` from the lease if every dimension holds enough; nothing otherwise. */
  take(window: number, need: readonly number[], now: number): boolean {
    this.roll(window);
    if (window !== this.window) return false;
    if (need.some((n, i) => (this.held[i] ?? 0) < n)) return false;
    need.forEach((n, i) => {
      this.held[i] = (this.held[i] ?? 0) - n;
      this.consumed[i] = (this.consumed[i] ?? 0) + n;
    });
    this.lastUse = now;
    return true;
  }

  /** Puts amounts back (negative: more was used than taken); windowed ones only while their window lasts. */
  give(window: number, amounts: readonly number[]): void {
    amounts.forEach((a, i) => {
      if (this.windowed[i] && window !== this.window) return;
      this.held[i] = (this.held[i] ?? 0) + a;
    });
  }

  /** The amounts to ask the database for, given what this request needs and the rate of use since the last refill. */
  chunk(need: readonly number[], now: number): number[] {
    return need.map((n, i) => chunkFor(n, this.rateOf(i, now), this.headroom[i] ?? Number.POSITIVE_INFINITY));
  }

  /** Use per millisecond: the previous estimate averaged with the use since the last refill. */
  private rateOf(i: number, now: number): number {
    if (this.lastRefill === 0) return 0;
    return ((this.rate[i] ?? 0) + (this.consumed[i] ?? 0) / Math.max(1, now - this.lastRefill)) / 2;
  }

  /**
   * Records a refill the database granted in `window`; `headroom` is what it had left after it. A grant for
   * a window that has passed while it was under way keeps only its unwindowed amounts.
   */
  credit(window: number, amounts: readonly number[], headroom: readonly number[], now: number): void {
    this.roll(window);
    const current = window === this.window;
    amounts.forEach((a, i) => {
      if (this.windowed[i] && !current) return;
      this.rate[i] = this.rateOf(i, now);
      this.consumed[i] = 0;
      this.held[i] = (this.held[i] ?? 0) + a;
      this.headroom[i] = headroom[i] ?? Number.POSITIVE_INFINITY;
    });
    if (!current) return;
    this.lastChunk = [...amounts];
    this.lastRefill = now;
  }

  /**
   * Whether the lease holds more than its share of what the database had left (requests gave back much
   * more than they used): other processes should see it now rather than after the next sweep.
   */
  get hoarding(): boolean {
    return this.held.some((h, i) => h > 0 && h > (this.headroom[i] ?? Number.POSITIVE_INFINITY) / LEASE_SHARE);
  }

  /** Whether a dimension has fallen below half of its last refill: time to refill ahead of need. */
  get low(): boolean {
    return this.held.some((h, i) => h < (this.lastChunk[i] ?? 0) / 2);
  }

  /** Empties the lease: what it held, for the database to take back (windowed amounts of `window`). */
  release(): { window: number; amounts: number[] } | undefined {
    if (this.held.every((h) => h === 0)) return undefined;
    const amounts = [...this.held];
    this.held.fill(0);
    // What goes back is what the database will have left beyond this lease, as far as this process knows.
    amounts.forEach((a, i) => {
      this.headroom[i] = (this.headroom[i] ?? Number.POSITIVE_INFINITY) + a;
    });
    return { window: this.window, amounts };
  }
}
