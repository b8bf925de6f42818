import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import type { Logger } from '../log/logger.js';

// Plain CommonJS so that it runs as is from the TypeScript sources (tests) and from `dist`.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * SQLite checkpoints a WAL database inside the commit that crosses 1,000 pages: on the event loop, and
 * the larger part of a write request's time under load. A worker thread with its own connection runs
 * passive checkpoints (which never block readers or writers) every `intervalMs` instead, on the other
 * core. Should the worker fail, the connection goes back to SQLite's automatic checkpoints.
 */
export function startCheckpointer(
  sqlite: SqliteDatabase.Database,
  path: string,
  logger: Logger,
  intervalMs = 200,
): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, path, intervalMs } });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (error) => {
    logger.warn({ reason: error.message }, 'SQLite checkpoint worker failed; automatic checkpoints again');
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  return async () => {
    if (stopping) return exited;
    stopping = true;
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  };
}
