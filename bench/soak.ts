// `npm run bench -- soak [seconds] [sqlite|postgres|both] [services] [alone|together|both]`: the services as real
// `atrium serve` processes under a mixed workload at 16 connections each for `seconds` (default 150), on SQLite
// and on PostgreSQL: each service alone on the machine in turn, then all of them at once (the fourth argument
// picks one of the two). Per service: requests, errors (non-2xx and socket errors), p50/p99, and the process
// RSS sampled every second (at the end of warm-up, at the end, and the slope in between). A third argument,
// e.g. `bench` or `bench,provenance`, runs only those services.
// Each service's load comes from its own process (as its users' would), and inference's fixed upstream runs in
// another, so no service's latency includes time the generator spent on another service's responses.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBenchDatabase } from '@atrium/bench';
import { BUNDLED_ARCHIVE } from '@atrium/provenance';
import autocannon from 'autocannon';
import { recordedVllm, startFixedUpstream } from '../packages/inference/test/support/fixed-upstream.js';
import { loadArchiveIntoPostgres } from './lib/aiida-postgres.js';
import { type Dialect, postgresSchema, type Running, type Service, startService } from './lib/atrium-serve.js';
import { bmfReport } from './lib/bench-service.js';
import { vacuumSeeded } from './lib/perf-dataset.js';
import { cpuMicros, postgresCpuMicros, rssBytes } from './lib/process-cpu.js';
import type { BenchReport } from './lib/report.js';
import { routeTimes, slopePerMinute, TROUGH_WINDOW_S, troughs } from './lib/soak-stats.js';

const CONNECTIONS = 16;
const SAMPLE_MS = 1000;
const KEY = 'sk-soak-0123456789abcdef';
const MODEL = 'soak/fixed';
const BENCHMARKS = 10;
const PERF_WINDOW = 100;
/** Reports the project holds before the run, as a project in use does (and PostgreSQL's statistics of them). */
const HISTORY = 1000;

type Step = autocannon.Request;

interface Workload {
  running: Running;
  steps: Step[];
  cleanup?: () => Promise<void>;
}

async function inference(dialect: Dialect, upstream: string): Promise<Workload> {
  const config = `[[inference.models]]\nid = "${MODEL}"\ncontextLength = 32768\nbackend = { type = "upstream", replicas = ["${upstream}"] }\n`;
  const running = await startService('inference', dialect, { config, env: { ATRIUM_DEMO_KEY: KEY } });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const chat = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
  const stream = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true });
  return {
    running,
    steps: [
      { method: 'POST', path: '/v1/chat/completions', headers, body: chat },
      { method: 'POST', path: '/v1/chat/completions', headers, body: stream },
      { method: 'GET', path: '/v1/models', headers },
    ],
  };
}

async function bench(dialect: Dialect): Promise<Workload> {
  let token = '';
  // ATRIUM_SOAK_PERF_THREADS=0 runs bench's perf queries on its event loop, for a side-by-side comparison.
  const perfThreads = process.env.ATRIUM_SOAK_PERF_THREADS;
  const running = await startService('bench', dialect, {
    env: perfThreads === undefined ? {} : { ATRIUM_BENCH_PERF_THREADS: perfThreads },
    before: async (cli) => {
      await cli(['bench', 'admin', 'user', 'create', '--name', 'Soak Runner', '--email', 'soak@bench.local']);
      token = (await cli(['bench', 'admin', 'token', '--email', 'soak@bench.local', '--jwt'])).trim();
    },
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const init = { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) };
    const response = await fetch(`${running.origin}${path}`, init);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ uuid: string; slug: string }[]>;
  };
  await call('POST', '/v0/organizations/soak-runner/projects', { name: 'Soak', slug: 'soak' });
  for (let i = 0; i < HISTORY; i++)
    await call('POST', '/v0/projects/soak/reports', bmfReport(i, BENCHMARKS, ['latency']));
  const seeded = await openBenchDatabase(running.database);
  await vacuumSeeded(seeded).finally(() => seeded.close());
  // The reports' own testbed and measure, not the ones every new project gets by default (localhost, throughput).
  const uuids = async (plural: string, only?: string) =>
    (await call('GET', `/v0/projects/soak/${plural}?per_page=255`))
      .filter((row) => only === undefined || row.slug === only)
      .map((row) => row.uuid)
      .join(',');
  const perf =
    `/v0/projects/soak/perf?branches=${await uuids('branches')}&testbeds=${await uuids('testbeds', 'ci-runner')}` +
    `&benchmarks=${await uuids('benchmarks')}&measures=${await uuids('measures', 'latency')}`;
  let second = HISTORY;
  // As the console's pinned plots do, the plot asks for a window: here the last PERF_WINDOW reports.
  const perfWindow = () => `${perf}&start_time=${Date.UTC(2026, 0, 1) + (second - PERF_WINDOW) * 1000}`;
  return {
    running,
    steps: [
      {
        method: 'POST',
        path: '/v0/projects/soak/reports',
        headers,
        setupRequest: (request) => ({ ...request, body: JSON.stringify(bmfReport(second++, BENCHMARKS, ['latency'])) }),
      },
      { method: 'GET', path: perf, headers, setupRequest: (request) => ({ ...request, path: perfWindow() }) },
      { method: 'GET', path: '/v0/projects/soak/alerts?per_page=8', headers },
      { method: 'GET', path: '/v0/projects/soak/reports?per_page=8', headers },
      { method: 'GET', path: '/v0/projects/soak/benchmarks?per_page=8', headers },
    ],
  };
}

async function provenance(dialect: Dialect): Promise<Workload> {
  let cleanup: (() => Promise<void>) | undefined;
  let config = '';
  if (dialect === 'postgres') {
    const schema = await postgresSchema();
    await loadArchiveIntoPostgres(BUNDLED_ARCHIVE, schema.url, join(process.cwd(), 'data', 'soak-cache'));
    config = `[provenance]\nsources = [{ name = "default", location = "${schema.url}" }]\n`;
    cleanup = schema.drop;
  }
  const running = await startService('provenance', dialect, { config });
  const listed = (await (await fetch(`${running.origin}/api/v4/nodes?limit=1`)).json()) as {
    data: { nodes: { uuid: string }[] };
  };
  const uuid = listed.data.nodes[0]?.uuid;
  const qb = JSON.stringify({
    path: [{ entity_type: 'node.Node.', orm_base: 'node', tag: 'n' }],
    project: { n: ['id', 'uuid', 'node_type', 'ctime'] },
    order_by: [{ n: [{ id: { order: 'desc' } }] }],
    limit: 20,
  });
  return {
    running,
    cleanup,
    steps: [
      { method: 'GET', path: '/api/v4/nodes/page/1?perpage=20&orderby=-ctime' },
      { method: 'GET', path: `/api/v4/nodes/${uuid}` },
      { method: 'POST', path: '/api/v4/querybuilder', headers: { 'content-type': 'application/json' }, body: qb },
      { method: 'GET', path: '/api/v4/nodes/statistics' },
    ],
  };
}

const starters: Record<Service, (dialect: Dialect, upstream: string) => Promise<Workload>> = {
  inference,
  provenance: (dialect) => provenance(dialect),
  bench: (dialect) => bench(dialect),
};

type Outcome = Pick<autocannon.Result, 'errors' | 'non2xx' | 'timeouts' | 'statusCodeStats'> & {
  requests: number;
  average: number;
  p50: number;
  p99: number;
  exited: string | undefined;
  logs: string;
};

type ToChild = { type: 'go'; seconds: number } | { type: 'stop' };
type FromChild = { type: 'ready'; pid: number } | { type: 'result'; outcome: Outcome };

/** A child process's part: one service, its workload and its load generator, driven by the parent's messages. */
async function generator(service: Service, dialect: Dialect, upstream: string): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  const workload = await starters[service](dialect, upstream);
  process.on('message', async (message: ToChild) => {
    if (message.type === 'go') {
      const result = await autocannon({
        url: workload.running.origin,
        connections: CONNECTIONS,
        duration: message.seconds,
        requests: workload.steps,
      });
      const { errors, non2xx, timeouts, statusCodeStats } = result;
      const outcome = { errors, non2xx, timeouts, statusCodeStats, exited: workload.running.exit() };
      const { total: requests, average } = result.requests;
      const { p50, p99 } = result.latency;
      send({ type: 'result', outcome: { ...outcome, requests, average, p50, p99, logs: workload.running.logs() } });
    } else {
      await workload.running.stop();
      await workload.cleanup?.();
      process.exit(0);
    }
  });
  send({ type: 'ready', pid: workload.running.pid });
}

function forkSelf(env: Record<string, string>): ChildProcess {
  return fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function next<T extends FromChild['type']>(child: ChildProcess, type: T): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromChild) => {
      if (message.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message as Extract<FromChild, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`soak generator exited with ${code} before ${type}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

type Run = 'alone' | 'together';

async function soak(dialect: Dialect, seconds: number, upstream: string, only: Service[], run: Run) {
  const children = only.map((service) =>
    forkSelf({ ATRIUM_SOAK_SERVICE: service, ATRIUM_SOAK_DIALECT: dialect, ATRIUM_SOAK_UPSTREAM: upstream }),
  );
  try {
    const pids = (await Promise.all(children.map((child) => next(child, 'ready')))).map((ready) => ready.pid);
    const warmUp = Math.min(30, seconds / 5);
    const samples = only.map((): [number, number][] => []);
    const started = performance.now();
    const sample = () => {
      const at = (performance.now() - started) / 1000;
      pids.forEach((pid, i) => {
        samples[i]?.push([at, rssBytes(pid) / 2 ** 20]);
      });
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const results = children.map((child) => next(child, 'result'));
    const cpu = () => ({ services: pids.map(cpuMicros), postgres: dialect === 'postgres' ? postgresCpuMicros() : 0 });
    const cpuBefore = cpu();
    for (const child of children) child.send({ type: 'go', seconds } satisfies ToChild);
    const outcomes = (await Promise.all(results)).map((result) => result.outcome);
    const cpuAfter = cpu();
    clearInterval(sampler);
    sample();
    const msPerRequest = (micros: number, requests: number) => Number((micros / 1000 / requests).toFixed(2));
    return outcomes.map((outcome, i) => {
      const points = samples[i] ?? [];
      const after = points.filter(([at]) => at >= warmUp);
      return {
        dialect,
        run,
        service: only[i] as Service,
        requests: outcome.requests,
        'req/s': Math.round(outcome.average),
        errors: outcome.errors + outcome.non2xx + outcome.timeouts + (outcome.exited === undefined ? 0 : 1),
        'p50 ms': outcome.p50,
        'p99 ms': outcome.p99,
        'CPU ms/req': msPerRequest((cpuAfter.services[i] ?? 0) - (cpuBefore.services[i] ?? 0), outcome.requests),
        // All PostgreSQL processes' CPU: one service's alone, the sum of the services' together.
        'PostgreSQL CPU ms/req':
          dialect === 'postgres' && run === 'alone'
            ? msPerRequest(cpuAfter.postgres - cpuBefore.postgres, outcome.requests)
            : '',
        'RSS start MB': Math.round(points[0]?.[1] ?? 0),
        'RSS warm MB': Math.round(after[0]?.[1] ?? 0),
        'RSS end MB': Math.round(points.at(-1)?.[1] ?? 0),
        'MB/min after warm-up': Number(slopePerMinute(troughs(after)).toFixed(2)),
        rss: points.map(([at, mb]) => [Math.round(at), Math.round(mb)]),
        routes: routeTimes(outcome.logs),
        statusCodes: outcome.statusCodeStats,
        logProblems: outcome.logs
          .split('\n')
          .filter((line) => /"level":(40|50|60)/.test(line))
          .slice(0, 20),
        socketErrors: outcome.errors,
        timeouts: outcome.timeouts,
        ...(outcome.exited === undefined ? {} : { exited: outcome.exited }),
      };
    });
  } finally {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.send({ type: 'stop' } satisfies ToChild);
          }),
      ),
    );
  }
}

/** The fixed upstream's part: a child process that answers inference's upstream calls. */
async function upstreamProcess(): Promise<void> {
  const upstream = await startFixedUpstream(recordedVllm);
  process.send?.({ url: upstream.origin });
  process.on('disconnect', () => process.exit(0));
}

function startUpstream(): Promise<{ child: ChildProcess; url: string }> {
  const child = forkSelf({ ATRIUM_SOAK_UPSTREAM_PROCESS: '1' });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`upstream exited with ${code}`)));
  });
}

if (process.env.ATRIUM_SOAK_UPSTREAM_PROCESS) await upstreamProcess();
if (process.env.ATRIUM_SOAK_SERVICE) {
  await generator(
    process.env.ATRIUM_SOAK_SERVICE as Service,
    process.env.ATRIUM_SOAK_DIALECT as Dialect,
    process.env.ATRIUM_SOAK_UPSTREAM ?? '',
  );
}

export default async function soakBench(args: string[]): Promise<BenchReport> {
  const seconds = Number(args[0] ?? 150);
  const which = args[1] ?? 'both';
  const dialects: Dialect[] = which === 'both' ? ['sqlite', 'postgres'] : [which as Dialect];
  const only = (args[2]?.split(',') ?? ['inference', 'provenance', 'bench']) as Service[];
  const runs: Run[] = args[3] === 'alone' || args[3] === 'together' ? [args[3]] : ['alone', 'together'];
  const upstream = await startUpstream();
  const rows = [];
  try {
    for (const dialect of dialects) {
      if (runs.includes('alone'))
        for (const service of only) rows.push(...(await soak(dialect, seconds, upstream.url, [service], 'alone')));
      if (runs.includes('together') && only.length > 1)
        rows.push(...(await soak(dialect, seconds, upstream.url, only, 'together')));
    }
  } finally {
    upstream.child.kill();
  }
  return {
    title: `soak: ${seconds} s at ${CONNECTIONS} connections per service, each service alone and all at once, each its own atrium serve process and load generator process`,
    columns: [
      'dialect',
      'run',
      'service',
      'requests',
      'req/s',
      'errors',
      'p50 ms',
      'p99 ms',
      'CPU ms/req',
      'PostgreSQL CPU ms/req',
      'RSS warm MB',
      'RSS end MB',
      'MB/min after warm-up',
    ],
    rows: rows.map(
      ({
        rss: _rss,
        routes: _routes,
        statusCodes: _codes,
        logProblems: _log,
        socketErrors: _errors,
        timeouts: _timeouts,
        ...row
      }) => row,
    ),
    notes: [
      'goals: 0 errors, bench p99 < 100 ms, RSS flat after warm-up',
      'alone: the service and its load generator have the machine to themselves (inference its fixed upstream too); together: all of them share its two cores',
      'CPU ms/req: the service process (all its threads) per request answered; PostgreSQL CPU ms/req: every PostgreSQL server process, per request of the service running alone',
      `bench perf threads: ${process.env.ATRIUM_SOAK_PERF_THREADS ?? 'the default (2)'}`,
      `workloads: inference chat (plain and streamed) on a fixed-response upstream + /v1/models; bench, on a project with ${HISTORY} reports (on PostgreSQL vacuumed and analysed, as autovacuum keeps a live server's tables): report POST (${BENCHMARKS} benchmarks), perf (${BENCHMARKS} benchmarks over the last ${PERF_WINDOW} reports), alerts, reports, benchmarks; provenance nodes page, node detail, QueryBuilder, statistics`,
      ...rows
        .filter((row) => row.service === 'bench')
        .map(
          (row) =>
            `bench on ${row.dialect} (${row.run}), server time by route, p50 / p99 ms: ${Object.entries(row.routes)
              .map(([route, time]) => `${route} ${time.p50} / ${time.p99}`)
              .join('; ')}`,
        ),
      `warm-up: the first min(30 s, duration / 5); RSS sampled every ${SAMPLE_MS / 1000} s; slope by least squares over the smallest sample of each ${TROUGH_WINDOW_S} s (the garbage collector's troughs)`,
    ],
    data: { rows },
  };
}
