// GET /healthz on the bench service vs a bare node:http server answering the same body, interleaved rounds;
// plus an access-logged route of the same size, to show what the per-request log line costs.
import { availableParallelism } from 'node:os';
import { type LatencySample, sampleLatency } from './lib/latency.js';
import { type LoadResult, load, median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';
import { spawnTarget } from './lib/spawn-target.js';

const TARGETS = [
  { name: 'bare node:http /healthz', kind: 'bare', path: '/healthz' },
  { name: 'atrium bench /healthz', kind: 'atrium', path: '/healthz' },
  { name: 'atrium bench /v0/server/version (access-logged)', kind: 'atrium', path: '/v0/server/version' },
] as const;

export default async function healthz(args: string[]): Promise<BenchReport> {
  const rounds = Number(args[0] ?? 3);
  const durationSeconds = Number(args[1] ?? 5);
  const connections = 10;
  const results = new Map<string, LoadResult[]>(TARGETS.map((t) => [t.name, []]));
  const latencies = new Map<string, LatencySample[]>(TARGETS.map((t) => [t.name, []]));
  const servers = await Promise.all(TARGETS.map((t) => spawnTarget('healthz-server', [t.kind], t.path)));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [i, target] of TARGETS.entries()) {
        const url = (servers[i] as { url: string }).url;
        await load(url, { connections, durationSeconds: 1 });
        results.get(target.name)?.push(await load(url, { connections, durationSeconds }));
        latencies.get(target.name)?.push(await sampleLatency(url));
      }
    }
  } finally {
    for (const server of servers) server.stop();
  }
  const summary = TARGETS.map((t) => {
    const runs = results.get(t.name) ?? [];
    const samples = latencies.get(t.name) ?? [];
    return {
      server: t.name,
      'req/s': Math.round(median(runs.map((r) => r.requestsPerSecond))),
      'p99 ms (load)': median(runs.map((r) => r.p99Ms)),
      'p50 us': Math.round(median(samples.map((l) => l.p50Us))),
      'p99 us': Math.round(median(samples.map((l) => l.p99Us))),
      errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
    };
  });
  const bare = summary[0]?.['req/s'] ?? 1;
  const rows = summary.map((s) => ({ ...s, 'vs bare': (s['req/s'] / bare).toFixed(2) }));
  return {
    title: `GET /healthz, ${connections} connections, ${rounds} interleaved rounds x ${durationSeconds}s (median), loopback, ${availableParallelism()} cores`,
    columns: ['server', 'req/s', 'vs bare', 'p99 ms (load)', 'p50 us', 'p99 us', 'errors'],
    rows,
    notes: [
      'goal: atrium >= 0.6x bare node:http throughput',
      'req/s and p99 ms under load: autocannon (whole milliseconds); p50/p99 us: 4000 requests over 2 keep-alive connections',
    ],
    data: { load: Object.fromEntries(results), latency: Object.fromEntries(latencies) },
  };
}
