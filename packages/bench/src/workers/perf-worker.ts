// A perf worker thread: reads perf queries from its own read-only connection and answers them as bytes, so
// that neither the query nor the building of its JSON or PNG runs on the service's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger, normalizeError } from '@atrium/core';
import { openBenchReader } from '../storage/open.js';
import { renderPerf } from '../views/perf-view.js';
import type { PerfAnswer, PerfJob, PerfWorkerData } from './perf-protocol.js';

const port = parentPort;
if (!port) throw new Error('perf-worker runs as a worker thread');
const data = workerData as PerfWorkerData;
const database = openBenchReader(data.url, { poolSize: data.poolSize, logger: createLogger({ level: data.logLevel }) });

async function answer(job: PerfJob): Promise<void> {
  let reply: PerfAnswer;
  try {
    // A copy of its own: the response may share its memory with other buffers, which must not move.
    const bytes = new Uint8Array(await renderPerf(database, job.project, job.query, job.format));
    port?.postMessage({ id: job.id, bytes } satisfies PerfAnswer, [bytes.buffer]);
    return;
  } catch (error) {
    const cause = error instanceof Error ? error : new Error(String(error));
    reply = { id: job.id, problem: normalizeError(cause), message: cause.message, stack: cause.stack };
  }
  port?.postMessage(reply);
}

port.on('message', (message: PerfJob | 'close') => {
  if (message !== 'close') return void answer(message);
  void database.close().finally(() => port.close());
});
