import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER_SCRIPT = fileURLToPath(new URL('./sqlite-worker.js', import.meta.url));

/** A statement ran longer than the deadline; its process was killed and is replaced. */
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
  /** Worker processes, each with its own connection. */
  size: number;
  /** Deadline of one statement, from the moment a worker takes it. */
  timeoutMs: number;
  /** Statements that may wait for a worker; more are refused. */
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
  worker?: ChildProcess;
  /** The worker has opened its connection: the deadline counts from here, not from the process start. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

function idle(worker: ChildProcess): void {
  worker.unref();
  worker.channel?.unref();
}

function busy(worker: ChildProcess): void {
  worker.ref();
  worker.channel?.ref();
}

type Answer = SqliteResult | { error: { name: string; message: string; code?: string } };
type WorkerMessage = { ready: true } | Answer;

/**
 * Runs SQLite statements in a few worker processes, one statement per worker at a time, so that no
 * statement blocks the event loop and none runs past its deadline: a late worker is killed (the only
 * way to stop better-sqlite3 mid-statement; a terminated worker thread would run the statement on to its
 * end) and its caller gets a QueryTimeoutError. Rows travel as JSON over the IPC channel (faster than the
 * `advanced` serialisation for rows of strings and numbers; archives hold no BLOBs).
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

  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the archive database is closed'));
    for (const slot of this.slots) this.stop(slot, new Error('the archive database is closed'));
  }

  private spawn(slot: Slot): ChildProcess {
    const worker = fork(WORKER_SCRIPT, [this.options.path, ...this.options.pragmas], {
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    // Only a worker with a statement keeps this process alive.
    idle(worker);
    worker.on('message', (message: WorkerMessage) => {
      if (slot.worker !== worker) return;
      if (!('ready' in message)) return this.finish(slot, message);
      slot.ready = true;
      if (slot.job) this.post(slot, worker, slot.job);
    });
    const fail = (error: Error) => {
      if (slot.worker !== worker) return;
      this.stop(slot, error);
      this.next(slot);
    };
    worker.on('error', fail);
    worker.on('exit', (code, signal) => fail(new Error(`the archive query process exited (${signal ?? code})`)));
    slot.worker = worker;
    return worker;
  }

  private start(slot: Slot, job: Job): void {
    const worker = slot.worker ?? this.spawn(slot);
    slot.job = job;
    busy(worker);
    if (slot.ready) this.post(slot, worker, job);
  }

  private post(slot: Slot, worker: ChildProcess, job: Job): void {
    slot.timer = setTimeout(() => {
      this.stop(slot, new QueryTimeoutError(this.options.timeoutMs));
      // Started at once, so that the next statement does not wait for a process to boot.
      this.spawn(slot);
      this.next(slot);
    }, this.options.timeoutMs);
    worker.send({ sql: job.sql, parameters: job.parameters });
  }

  private finish(slot: Slot, message: Answer): void {
    const { job } = slot;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (slot.worker) idle(slot.worker);
    if (job) {
      if ('error' in message) job.reject(Object.assign(new Error(message.error.message), message.error));
      else job.resolve(message);
    }
    this.next(slot);
  }

  /** Fails the slot's statement with `reason` and kills its worker; the next statement starts a new one. */
  private stop(slot: Slot, reason: Error): void {
    const { worker, job } = slot;
    clearTimeout(slot.timer);
    slot.worker = undefined;
    slot.ready = false;
    slot.job = undefined;
    job?.reject(reason);
    worker?.kill('SIGKILL');
  }

  private next(slot: Slot): void {
    if (slot.job || this.closed) return;
    const job = this.queue.shift();
    if (job) this.start(slot, job);
  }
}
