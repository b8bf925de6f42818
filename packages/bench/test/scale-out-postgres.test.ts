// Scale-out on one PostgreSQL schema: two real `atrium serve --services bench` processes (from dist/: run
// `npx tsc -b` first) behind a round-robin proxy; 200 reports posted 20 at a time, some over a static threshold.
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startService } from '../../../bench/lib/atrium-serve.js';
import type { Json } from './harness.js';

const SECRET = 'scale-out-shared-jwt-secret';
const REPORTS = 200;
const CONCURRENCY = 20;
const STABLE = 5; // benchmarks every report carries
const regression = (i: number) => i % 10 === 3; // case_000 above the static limit

/** Report `i`: the stable benchmarks plus `new_<i % 10>`, created concurrently by reports on both processes. */
function report(i: number, thresholds?: unknown) {
  const results: Record<string, { latency: { value: number } }> = {};
  for (let b = 0; b < STABLE; b++) {
    results[`bench::case_${b}`] = { latency: { value: b === 0 && regression(i) ? 1000 : 100 + b } };
  }
  results[`bench::new_${i % 10}`] = { latency: { value: 50 } };
  const time = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    branch: 'main',
    testbed: 'ci-runner',
    hash: (i + 1).toString(16).padStart(40, '0'),
    start_time: time,
    end_time: time,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
    ...(thresholds ? { thresholds } : {}),
  };
}

/** A round-robin HTTP proxy: each request goes to the next upstream; `served` counts per upstream. */
async function roundRobin(upstreams: string[]) {
  const served = upstreams.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const index = next++ % upstreams.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(req.url ?? '/', upstreams[index]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on('error', (error) => {
      res.writeHead(502).end(String(error));
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, served, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('bench scale-out: two processes on one PostgreSQL schema behind a round-robin proxy', () => {
  const servers: Running[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let token = '';

  beforeAll(async () => {
    const first = await startService('bench', 'postgres', {
      env: { ATRIUM_BENCH_SECURITY_SECRET_KEY: SECRET, ATRIUM_LOG_LEVEL: 'warn' },
      before: async (cli) => {
        await cli(['bench', 'admin', 'user', 'create', '--name', 'Scale Runner', '--email', 'scale@bench.local']);
        token = (await cli(['bench', 'admin', 'token', '--email', 'scale@bench.local', '--jwt'])).trim();
      },
    });
    servers.push(first);
    // The second process gets a fresh schema of its own from startService, then is pointed at the first's.
    const second = await startService('bench', 'postgres', {
      env: {
        ATRIUM_BENCH_SECURITY_SECRET_KEY: SECRET,
        ATRIUM_LOG_LEVEL: 'warn',
        ATRIUM_BENCH_DATABASE: first.database,
      },
    });
    servers.push(second);
    proxy = await roundRobin(servers.map((server) => server.origin));
  }, 240_000);

  afterAll(async () => {
    await proxy?.close();
    // The second first: the first's stop drops the shared schema.
    for (const server of [...servers].reverse()) await server.stop();
  }, 60_000);

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${proxy.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return { json: JSON.parse(text) as Json, total: response.headers.get('x-total-count') };
  };

  it('ingests 200 concurrent reports exactly once each, whole, with one alert per regression', async () => {
    await call('POST', '/v0/organizations/scale-runner/projects', { name: 'Scale', slug: 'scale' });
    const thresholds = { models: { latency: { test: 'static', upper_boundary: 500 } } };
    const posted = new Map<string, number>(); // report uuid -> index
    posted.set((await call('POST', '/v0/projects/scale/reports', report(0, thresholds))).json.uuid, 0);
    let next = 1;
    const worker = async () => {
      while (next < REPORTS) {
        const i = next++;
        posted.set((await call('POST', '/v0/projects/scale/reports', report(i))).json.uuid, i);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(posted.size).toBe(REPORTS);
    expect(proxy.served.every((count) => count > REPORTS / 3)).toBe(true);

    const listed = await call('GET', '/v0/projects/scale/reports?per_page=255');
    expect(listed.total).toBe(String(REPORTS));
    const uuids = (listed.json as Json[]).map((r) => r.uuid);
    expect(new Set(uuids).size).toBe(REPORTS);
    expect(new Set(uuids)).toEqual(new Set(posted.keys()));
    const hashes = (listed.json as Json[]).map((r) => r.branch.head.version.hash);
    expect(new Set(hashes).size).toBe(REPORTS);
    const numbers = (listed.json as Json[]).map((r) => r.branch.head.version.number).sort((a, b) => a - b);
    expect(numbers).toEqual([...Array(REPORTS).keys()]);

    // No partial report: every report, read back through the proxy, has all its benchmarks, each with its metric.
    const full: Json[] = [];
    const reader = async () => {
      for (let uuid = uuids.pop(); uuid; uuid = uuids.pop()) {
        full.push((await call('GET', `/v0/projects/scale/reports/${uuid}`)).json);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, reader));
    expect(full).toHaveLength(REPORTS);
    for (const r of full) {
      const i = posted.get(r.uuid) as number;
      const names = (r.results[0] as Json[]).map((result) => result.benchmark.name).sort();
      expect(names).toEqual([...Array.from({ length: STABLE }, (_, b) => `bench::case_${b}`), `bench::new_${i % 10}`]);
      for (const result of r.results[0] as Json[]) expect(result.measures[0].metric.value).toBeTypeOf('number');
      expect(r.counts.alerts.total).toBe(regression(i) ? 1 : 0);
    }

    // Dimensions created concurrently by both processes exist once each.
    const benchmarks = await call('GET', '/v0/projects/scale/benchmarks?per_page=255');
    expect(benchmarks.total).toBe(String(STABLE + 10));
    const measures = await call('GET', '/v0/projects/scale/measures?per_page=255');
    expect((measures.json as Json[]).map((m) => m.slug).sort()).toEqual(['latency', 'throughput']); // the defaults

    // Exactly one alert per regressed report, on case_000.
    const alerts = await call('GET', '/v0/projects/scale/alerts?per_page=255');
    const regressed = [...posted].filter(([, i]) => regression(i)).map(([uuid]) => uuid);
    expect(alerts.total).toBe(String(regressed.length));
    const alerted = (alerts.json as Json[]).map((alert) => alert.report);
    expect(alerted.sort()).toEqual(regressed.sort());
    expect(new Set((alerts.json as Json[]).map((alert) => alert.benchmark.name))).toEqual(new Set(['bench::case_0']));

    for (const server of servers) expect(server.exit()).toBeUndefined();
  }, 120_000);
});
