import { Worker } from 'node:worker_threads';

const WORKER_SCRIPT = new URL('./sqlite-worker.js', import.meta.url);

/** A statement ran longer than the deadline; its thread was terminated and replaced. */
export class QueryTimeoutError extends Error {
  override readonly name = 'QueryTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`query stopped after ${timeoutMs} ms`);
  }
}

/** More statements are waiting for a thread than the pool queues. */
export class QueryQueueFullError extends Error {
  override readonly name = 'QueryQueueFullError';
  constructor(readonly queued: number) {
    super(`${queued} queries already waiting`);
  }
}

export interface SqliteWorkerPoolOptions {
  path: string;
  pragmas: string[];
  /** Threads, each with its own connection. */
  size: number;
  /** Deadline of one statement, from the moment a thread takes it. */
  timeoutMs: number;
  /** Statements that may wait for a thread; more are refused. */
  maxQueued: number;
}

export interface SqliteResult {
  rows: Record<string, unknown>[];
  changes?: number;
}

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(result: SqliteResult): void;
  reject(error: Error): void;
}

interface Slot {
  /** Started with the pool, and again on first use after a deadline or a crash. */
  worker?: Worker;
  /** The thread has opened its connection: the deadline counts from here, not from the thread's start. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

type Answer = SqliteResult | { error: { name: string; message: string; code?: string } };
type WorkerMessage = { ready: true } | Answer;

/**
 * Runs SQLite statements on a few worker threads, one statement per thread at a time, so that no
 * statement blocks the event loop and none runs past its deadline: a late thread is terminated (the
 * only way to stop better-sqlite3 mid-statement) and its caller gets a QueryTimeoutError.
 */
export class SqliteWorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: SqliteWorkerPoolOptions) {
    this.slots = Array.from({ length: options.size }, () => ({ ready: false }));
    for (const slot of this.slots) this.spawn(slot);
  }

  run(sql: string, parameters: readonly unknown[]): Promise<SqliteResult> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the archive database is closed'));
      const job = { sql, parameters, resolve, reject };
      const idle = this.slots.find((slot) => !slot.job);
      if (idle) return this.start(idle, job);
      if (this.queue.length >= this.options.maxQueued) return reject(new QueryQueueFullError(this.queue.length));
      this.queue.push(job);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the archive database is closed'));
    await Promise.all(this.slots.map((slot) => this.stop(slot, new Error('the archive database is closed'))));
  }

  private spawn(slot: Slot): Worker {
    const { path, pragmas } = this.options;
    const worker = new Worker(WORKER_SCRIPT, { workerData: { path, pragmas } });
    // Only a thread with a statement keeps the process alive.
    worker.unref();
    worker.on('message', (message: WorkerMessage) => {
      if (slot.worker !== worker) return;
      if (!('ready' in message)) return this.finish(slot, message);
      slot.ready = true;
      if (slot.job) this.post(slot, worker, slot.job);
    });
    const fail = (error: Error) => {
      if (slot.worker !== worker) return;
      void this.stop(slot, error);
      this.next(slot);
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the archive query thread exited')));
    slot.worker = worker;
    return worker;
  }

  private start(slot: Slot, job: Job): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.job = job;
    worker.ref();
    if (slot.ready) this.post(slot, worker, job);
  }

  private post(slot: Slot, worker: Worker, job: Job): void {
    slot.timer = setTimeout(() => {
      void this.stop(slot, new QueryTimeoutError(this.options.timeoutMs));
      this.next(slot);
    }, this.options.timeoutMs);
    worker.postMessage({ sql: job.sql, parameters: job.parameters });
  }

  private finish(slot: Slot, message: Answer): void {
    const { job } = slot;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker?.unref();
    if (job) {
      if ('error' in message) job.reject(Object.assign(new Error(message.error.message), message.error));
      else job.resolve(message);
    }
    this.next(slot);
  }

  /** Fails the slot's statement with `reason` and terminates its thread; the next statement starts a new one. */
  private async stop(slot: Slot, reason: Error): Promise<void> {
    const { worker, job } = slot;
    clearTimeout(slot.timer);
    slot.worker = undefined;
    slot.ready = false;
    slot.job = undefined;
    job?.reject(reason);
    await worker?.terminate();
  }

  private next(slot: Slot): void {
    if (slot.job || this.closed) return;
    const job = this.queue.shift();
    if (job) this.start(slot, job);
  }
}
