/** A fixed set of resources (context sequences) handed out one request at a time, first come first served. */
export class ResourcePool<T> {
  private readonly free: T[];
  private readonly waiting: Array<(item: T) => void> = [];

  constructor(items: readonly T[]) {
    this.free = [...items];
  }

  get idle(): number {
    return this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a free item; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<T> {
    const item = this.free.pop();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      const grant = (granted: T) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(granted);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  release(item: T): void {
    const next = this.waiting.shift();
    if (next) next(item);
    else this.free.push(item);
  }
}
