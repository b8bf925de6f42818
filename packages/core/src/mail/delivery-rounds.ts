/**
 * Runs a background sender's delivery rounds one at a time: every `intervalMs`, and on demand. A call while
 * a round runs starts another right after it, so nothing queued meanwhile waits for the next tick.
 */
export class DeliveryRounds {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  /** `round` does the work; a round that throws is reported to `onError` and the next one runs as usual. */
  constructor(
    private readonly round: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  get closed(): boolean {
    return this.stopped;
  }

  /** Runs a round now, then every `intervalMs`. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Starts a round (or another one right after the running one) without waiting for it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops the timer and waits for the round in progress. */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
