import { Worker } from 'node:worker_threads';
import { type Database, HttpError, type LogConfig } from '@atrium/core';
import type { PerfRequest } from '../domain/perf-query.js';
import type { BenchDatabase } from '../storage/schema.js';
import type { Project } from '../storage/types.js';
import { type PerfFormat, renderPerf } from '../views/perf-view.js';
import type { PerfAnswer, PerfJob, PerfWorkerData } from './perf-protocol.js';

/** Answers perf queries (`JsonPerf` bytes or a PNG plot) for projects the caller may view. */
export interface PerfRenderer {
  render(project: Project, request: PerfRequest, format: PerfFormat): Promise<Buffer>;
  close(): Promise<void>;
}

export interface PerfThreadsOptions {
  url: string;
  dialect: Database<BenchDatabase>['dialect'];
  /** Worker threads; 0 answers on the event loop. */
  threads: number;
  logLevel: LogConfig['level'];
  /** Queries that may wait for a thread; more get a 503. */
  maxQueued?: number;
}

// Run from the TypeScript sources (the tests), the worker's module is TypeScript as well: a bootstrap
// registers tsx's loader in the thread (from the working directory's node_modules), then imports it: Node 20
// ignores `--import` in a worker's execArgv.
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`./perf-worker.${FROM_SOURCES ? 'ts' : 'js'}`, import.meta.url);
const newWorker = (workerData: PerfWorkerData) =>
  FROM_SOURCES
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(ENTRY, { workerData });

/**
 * Queries a thread has in hand. On SQLite it runs them one statement at a time (better-sqlite3 is synchronous),
 * but the next one is already there when an answer leaves, instead of a round trip through two busy event loops
 * later: under the soak's load a thread's query took 8 ms and its round trip 19 ms, so with one in hand a slot
 * sat idle most of the time and plots waited 25–60 ms for one. On PostgreSQL they run side by side.
 */
export const JOBS_PER_THREAD = 4;

interface Pending {
  job: PerfJob;
  resolve(bytes: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  /** Started on first use, and again after the thread failed. */
  worker?: Worker;
  running: Map<number, Pending>;
}

const busy = () =>
  new HttpError(503, 'busy', 'Too many performance queries are waiting; try again shortly.', undefined, {
    'retry-after': '1',
  });

function failure(answer: Extract<PerfAnswer, { problem: unknown }>): Error {
  const { problem } = answer;
  if (problem.code === 'internal_error') {
    return Object.assign(new Error(answer.message), { stack: answer.stack });
  }
  return new HttpError(problem.status, problem.code, problem.message, problem.param, problem.headers);
}

/**
 * Perf queries in worker threads, each with its own read-only connection: a plot of a whole history
 * (half a second of SQLite on the thread that runs it) no longer stops the service's other requests,
 * and the building of the JSON, the larger part of a plot's time, runs beside the event loop. A new query
 * goes to the thread with the fewest in hand (`JOBS_PER_THREAD` at most), else waits in a queue here.
 */
class PerfThreads implements PerfRenderer {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: PerfThreadsOptions) {
    this.slots = Array.from({ length: options.threads }, () => ({ running: new Map() }));
  }

  render(project: Project, request: PerfRequest, format: PerfFormat): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the bench service is closing'));
      const pending = { job: { id: this.nextId++, project, request, format }, resolve, reject };
      const slot = this.freeSlot();
      if (slot) return this.start(slot, pending);
      if (this.queue.length >= (this.options.maxQueued ?? 256)) return reject(busy());
      this.queue.push(pending);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the bench service is closing'));
    await Promise.all(this.slots.map((slot) => this.stop(slot)));
  }

  private freeSlot(): Slot | undefined {
    let free: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.running.size < JOBS_PER_THREAD && (!free || slot.running.size < free.running.size)) free = slot;
    }
    return free;
  }

  private start(slot: Slot, pending: Pending): void {
    const worker = slot.worker ?? this.spawn(slot);
    if (slot.running.size === 0) worker.ref();
    slot.running.set(pending.job.id, pending);
    worker.postMessage(pending.job);
  }

  private spawn(slot: Slot): Worker {
    const workerData: PerfWorkerData = {
      url: this.options.url,
      poolSize: JOBS_PER_THREAD,
      logLevel: this.options.logLevel,
    };
    const worker = newWorker(workerData);
    slot.worker = worker;
    worker.on('message', (answer: PerfAnswer) => this.finish(slot, answer));
    const fail = (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      // An error thrown in the thread arrives with its own properties only (a SqliteError without its message).
      const reason = new Error(
        `the perf worker thread failed: ${[error.message, error.code].filter(Boolean).join(' ')}`,
      );
      for (const pending of slot.running.values()) pending.reject(reason);
      slot.running.clear();
      this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exited (${code})`)));
    return worker;
  }

  private finish(slot: Slot, answer: PerfAnswer): void {
    const pending = slot.running.get(answer.id);
    slot.running.delete(answer.id);
    if (slot.running.size === 0) slot.worker?.unref();
    if ('bytes' in answer)
      pending?.resolve(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.length));
    else pending?.reject(failure(answer));
    this.next();
  }

  private next(): void {
    while (this.queue.length && !this.closed) {
      const slot = this.freeSlot();
      if (!slot) return;
      this.start(slot, this.queue.shift() as Pending);
    }
  }

  private async stop(slot: Slot): Promise<void> {
    const { worker } = slot;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}

/** Perf queries in `threads` worker threads, or on the event loop (no threads, or an in-memory database). */
export function perfRenderer(database: Database<BenchDatabase>, options: PerfThreadsOptions): PerfRenderer {
  if (options.threads === 0 || options.url.endsWith(':memory:')) {
    return {
      render: (project, request, format) => renderPerf(database, project, request, format),
      close: async () => {},
    };
  }
  return new PerfThreads(options);
}
