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
  try {
    const rendered = await renderPerf(database, job.project, job.request, job.format);
    // JSON is written into memory of its own and moves without a copy; a PNG may share its memory, so it is copied.
    const bytes = job.format === 'json' ? rendered : new Uint8Array(rendered);
    port?.postMessage({ id: job.id, bytes } satisfies PerfAnswer, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    const cause = error instanceof Error ? error : new Error(String(error));
    const reply: PerfAnswer = {
      id: job.id,
      problem: normalizeError(cause),
      message: cause.message,
      stack: cause.stack,
    };
    port?.postMessage(reply);
  }
}

port.on('message', (message: PerfJob | 'close') => {
  if (message !== 'close') return void answer(message);
  void database.close().finally(() => port.close());
});
