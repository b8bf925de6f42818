// Report ingestion on the bench service: 50 benchmarks x 2 measures per report with t-test thresholds on
// both measures, SQLite and PostgreSQL side by side (sequential reports over HTTP, in-process server);
// then a size sweep: one report of 1k to 16k benchmarks, timed, with /healthz polled meanwhile.
import { availableParallelism } from 'node:os';
import { REPORT_LIMITS } from '@atrium/bench';
import { bmfReport, type Dialect, startBenchService } from './lib/bench-service.js';
import { median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const MEASURES = ['latency', 'throughput'];
const BENCHMARKS = 50;

async function ingest(dialect: Dialect, reports: number) {
  const service = await startBenchService(dialect);
  try {
    const thresholds = {
      models: {
        latency: { test: 't_test', max_sample_size: 64, upper_boundary: 0.99 },
        throughput: { test: 't_test', max_sample_size: 64, lower_boundary: 0.99 },
      },
    };
    await service.post('/v0/projects/bench/reports', { ...bmfReport(0, BENCHMARKS, MEASURES), thresholds });
    for (let warm = 1; warm <= 5; warm++)
      await service.post('/v0/projects/bench/reports', bmfReport(warm, BENCHMARKS, MEASURES));
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < reports; i++) {
      const t0 = performance.now();
      await service.post('/v0/projects/bench/reports', bmfReport(10 + i, BENCHMARKS, MEASURES));
      times.push(performance.now() - t0);
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    return {
      dialect,
      reports,
      'reports/s': reports / seconds,
      'metrics/s': Math.round((reports * BENCHMARKS * MEASURES.length) / seconds),
      'p50 ms': median(times),
      'p99 ms': times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0,
    };
  } finally {
    await service.close();
  }
}

/** The longest time /healthz took to answer while `work` ran (polled back to back). */
async function longestHealthz(base: string, work: Promise<unknown>): Promise<number> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  let longest = 0;
  while (!done) {
    const t0 = performance.now();
    await fetch(`${base}/healthz`);
    longest = Math.max(longest, performance.now() - t0);
  }
  await finished;
  return longest;
}

/** One report of `benchmarks` benchmarks x 1 measure (the second report, so every dimension exists). */
async function sweep(dialect: Dialect, benchmarks: number) {
  const service = await startBenchService(dialect);
  try {
    await service.post('/v0/projects/bench/reports', bmfReport(0, benchmarks, ['latency']));
    const t0 = performance.now();
    const stall = await longestHealthz(
      service.base,
      service.post('/v0/projects/bench/reports', bmfReport(1, benchmarks, ['latency'])),
    );
    return { dialect, 'benchmarks/report': benchmarks, 'report ms': performance.now() - t0, 'max /healthz ms': stall };
  } finally {
    await service.close();
  }
}

/** Up to the largest report accepted (10,000 benchmarks per iteration; a larger one is refused with 400). */
const SWEEP = [1000, 4000, REPORT_LIMITS.benchmarks];

export default async function benchIngest(args: string[]): Promise<BenchReport> {
  const reports = Number(args[0] ?? 40);
  const rows = [];
  for (const dialect of ['sqlite', 'postgres'] as const) rows.push(await ingest(dialect, reports));
  const sqlite = rows[0]?.['reports/s'] ?? 1;
  const sweeps = [];
  for (const dialect of ['sqlite', 'postgres'] as const)
    for (const benchmarks of SWEEP) sweeps.push(await sweep(dialect, benchmarks));
  return {
    title: `Report ingestion: ${BENCHMARKS} benchmarks x ${MEASURES.length} measures, t-test thresholds on, ${reports} sequential reports, ${availableParallelism()} cores; then one report of ${SWEEP.join('/')} benchmarks`,
    columns: [
      'dialect',
      'reports',
      'reports/s',
      'metrics/s',
      'p50 ms',
      'p99 ms',
      'vs sqlite',
      'benchmarks/report',
      'report ms',
      'max /healthz ms',
    ],
    rows: [...rows.map((row) => ({ ...row, 'vs sqlite': (row['reports/s'] / sqlite).toFixed(2) })), ...sweeps],
    notes: [
      'each report: 100 metrics, 100 boundaries from a 64-sample history window, all in one transaction',
      'sweep: a second report over existing dimensions, no thresholds; /healthz polled back to back while it ran',
    ],
  };
}
