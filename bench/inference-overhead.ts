// `npm run bench -- inference-overhead`: what the inference gateway adds on top of a model server.
//  1. A fixed-response OpenAI-compatible upstream (its own process) is called directly and through the gateway
//     (its own process): added latency p50/p99 at 1,000 requests/s (open loop, sub-millisecond timing) and
//     throughput at 64 connections, non-stream and stream.
//  2. The gateway's RSS after warm-up and after 100,000 more requests.
//  3. The embedded engine's tokens/s with the generated test model at 1 and 4 concurrent streams.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { spawnEngine, TEST_MODEL_ID, writeTestModel } from '../packages/inference/src/index.js';
import { load, median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const KEY = 'sk-bench-0123456789abcdef';
const MODEL = 'bench/fixed';
const CHAT = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
const STREAM = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }], stream: true });
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };

type Role = { role: 'upstream' } | { role: 'gateway'; upstream: string };
type ChildMessage = { type: 'ready'; url: string } | { type: 'stats'; rss: number; cpuMicros: number };

// ---- child processes -------------------------------------------------------------------------------------

async function runUpstream(): Promise<string> {
  const { startFixedUpstream } = await import('../packages/inference/test/support/fixed-upstream.js');
  return (await startFixedUpstream()).origin;
}

async function runGateway(upstream: string): Promise<string> {
  const { buildInferenceApp, inferenceConfigSchema } = await import('../packages/inference/src/index.js');
  const { createLogger } = await import('@atrium/core');
  const config = inferenceConfigSchema.parse({
    port: 0,
    auth: { demoKey: KEY },
    models: [{ id: MODEL, contextLength: 32_768, backend: { type: 'upstream', replicas: [upstream] } }],
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-'));
  const app = await buildInferenceApp(config, { logger: createLogger({ level: 'warn' }), dataDir, accessLog: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  process.on('message', (message: { type: string }) => {
    if (message.type !== 'stats') return;
    const cpu = process.cpuUsage();
    process.send?.({
      type: 'stats',
      rss: process.memoryUsage().rss,
      cpuMicros: cpu.user + cpu.system,
    } satisfies ChildMessage);
  });
  return `http://127.0.0.1:${port}`;
}

const childRole = process.env.ATRIUM_BENCH_ROLE ? (JSON.parse(process.env.ATRIUM_BENCH_ROLE) as Role) : undefined;
if (childRole) {
  const url = childRole.role === 'upstream' ? await runUpstream() : await runGateway(childRole.upstream);
  process.send?.({ type: 'ready', url } satisfies ChildMessage);
  process.on('disconnect', () => process.exit(0));
}

interface Child {
  process: ChildProcess;
  url: string;
}

function startChild(role: Role): Promise<Child> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ATRIUM_BENCH_ROLE: JSON.stringify(role) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve({ process: child, url: message.url });
    });
    child.once('exit', (code) => reject(new Error(`${role.role} exited with ${code}`)));
  });
}

/** The gateway's RSS and the CPU time it has used so far. */
function statsOf(child: Child): Promise<{ rss: number; cpuMicros: number }> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== 'stats') return;
      child.process.off('message', onMessage);
      resolve(message);
    };
    child.process.on('message', onMessage);
    child.process.send({ type: 'stats' });
  });
}

// ---- load generation -------------------------------------------------------------------------------------

const percentile = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** Open-loop load at a fixed rate (evenly paced each millisecond), timing each full response with sub-ms precision. */
async function latencyAtRate(origin: string, path: string, body: string, rate: number, seconds: number) {
  const pool = new Pool(origin, { connections: 64 });
  const total = rate * seconds;
  const latencies = new Float64Array(total);
  let errors = 0;
  const one = async (i: number) => {
    const started = performance.now();
    try {
      const response = await pool.request({ method: 'POST', path, headers: HEADERS, body });
      await response.body.text();
      if (response.statusCode !== 200) errors++;
    } catch {
      errors++;
    }
    latencies[i] = performance.now() - started;
  };
  const pending: Promise<void>[] = [];
  const perTick = rate / 1000;
  const start = performance.now();
  for (let tick = 0; tick < seconds * 1000; tick++) {
    const due = start + tick;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (let j = 0; j < perTick; j++) pending.push(one(tick * perTick + j));
  }
  await Promise.all(pending);
  await pool.close();
  latencies.sort();
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors };
}

async function throughput(url: string, body: string, seconds: number) {
  const result = await load(url, { connections: 64, durationSeconds: seconds, method: 'POST', body, headers: HEADERS });
  return {
    rps: result.requestsPerSecond,
    requests: result.requestsPerSecond * seconds,
    errors: result.errors + result.non2xx,
  };
}

/** Completion tokens per second over `seconds` with `streams` concurrent streaming chats. */
async function engineTokensPerSecond(origin: string, streams: number, seconds: number): Promise<number> {
  const pool = new Pool(origin, { connections: streams });
  const body = JSON.stringify({
    model: TEST_MODEL_ID,
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let tokens = 0;
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: streams }, async () => {
      while (performance.now() < deadline) {
        const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: HEADERS, body });
        const text = await response.body.text();
        tokens += Number(/"completion_tokens":(\d+)/.exec(text.slice(text.lastIndexOf('"usage"')))?.[1] ?? 0);
      }
    }),
  );
  await pool.close();
  return tokens / ((performance.now() - start) / 1000);
}

// ---- the benchmark ---------------------------------------------------------------------------------------

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Round {
  direct: Awaited<ReturnType<typeof latencyAtRate>>;
  through: Awaited<ReturnType<typeof latencyAtRate>>;
  directRps: number;
  throughRps: number;
  cpuPerRequest: number;
  errors: number;
}

/** One interleaved round: direct then gateway, at 1,000 req/s and then flat out. */
async function measureRound(upstream: Child, gateway: Child, body: string, seconds: number): Promise<Round> {
  const path = '/v1/chat/completions';
  const direct = await latencyAtRate(upstream.url, path, body, 1000, seconds);
  const through = await latencyAtRate(gateway.url, path, body, 1000, seconds);
  const directMax = await throughput(`${upstream.url}${path}`, body, seconds);
  const cpuBefore = (await statsOf(gateway)).cpuMicros;
  const throughMax = await throughput(`${gateway.url}${path}`, body, seconds);
  const cpuPerRequest = ((await statsOf(gateway)).cpuMicros - cpuBefore) / throughMax.requests;
  const errors = direct.errors + through.errors + directMax.errors + throughMax.errors;
  return { direct, through, directRps: directMax.rps, throughRps: throughMax.rps, cpuPerRequest, errors };
}

export default async function inferenceOverhead(args: string[]): Promise<BenchReport> {
  const quick = args.includes('--quick');
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 2 : 3;
  const soakRequests = quick ? 10_000 : 100_000;
  const upstream = await startChild({ role: 'upstream' });
  const gateway = await startChild({ role: 'gateway', upstream: upstream.url });
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  try {
    for (const [mode, body] of [
      ['non-stream', CHAT],
      ['stream', STREAM],
    ] as const) {
      // Warm both paths (connections, JIT) before measuring.
      await throughput(`${upstream.url}/v1/chat/completions`, body, 1);
      await throughput(`${gateway.url}/v1/chat/completions`, body, 1);
      const results: Round[] = [];
      for (let r = 0; r < rounds; r++) results.push(await measureRound(upstream, gateway, body, seconds));
      const m = (pick: (round: Round) => number) => median(results.map(pick));
      rows.push({
        mode,
        'direct p50 ms': round(m((x) => x.direct.p50)),
        'gateway p50 ms': round(m((x) => x.through.p50)),
        'added p50 ms': round(m((x) => x.through.p50 - x.direct.p50)),
        'direct p99 ms': round(m((x) => x.direct.p99)),
        'gateway p99 ms': round(m((x) => x.through.p99)),
        'added p99 ms': round(m((x) => x.through.p99 - x.direct.p99)),
        'direct req/s': Math.round(m((x) => x.directRps)),
        'gateway req/s': Math.round(m((x) => x.throughRps)),
        'throughput ratio': round(m((x) => x.throughRps / x.directRps)),
        'gateway CPU µs/req': Math.round(m((x) => x.cpuPerRequest)),
        errors: results.reduce((n, x) => n + x.errors, 0),
      });
    }

    const warm = (await statsOf(gateway)).rss;
    const soakStart = performance.now();
    let sent = 0;
    while (sent < soakRequests) {
      const result = await load(`${gateway.url}/v1/chat/completions`, {
        connections: 64,
        durationSeconds: 5,
        method: 'POST',
        body: CHAT,
        headers: HEADERS,
      });
      sent += Math.round(result.requestsPerSecond * 5);
    }
    const after = (await statsOf(gateway)).rss;
    const growthMb = (after - warm) / 1024 / 1024;
    notes.push(
      `gateway RSS: ${round(warm / 1024 / 1024, 1)} MB after warm-up, ${round(after / 1024 / 1024, 1)} MB after ~${sent} more requests (${round((performance.now() - soakStart) / 1000, 1)} s): growth ${round(growthMb, 1)} MB (goal < 50 MB)`,
    );

    const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-model-'));
    const modelPath = join(dir, 'tiny.gguf');
    writeTestModel(modelPath);
    const engine = await spawnEngine({
      modelPath,
      modelName: TEST_MODEL_ID,
      threads: 1,
      sequences: 4,
      contextSize: 2048,
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const single = median([
        await engineTokensPerSecond(engine.origin, 1, seconds / 2),
        await engineTokensPerSecond(engine.origin, 1, seconds / 2),
      ]);
      const four = median([
        await engineTokensPerSecond(engine.origin, 4, seconds / 2),
        await engineTokensPerSecond(engine.origin, 4, seconds / 2),
      ]);
      notes.push(
        `embedded engine, generated test model, 1 thread: ${Math.round(single)} tokens/s at 1 stream, ${Math.round(four)} tokens/s at 4 streams (${round(four / single)}x; each reply is ~9 tokens, so HTTP and prompt evaluation are included)`,
      );
    } finally {
      await engine.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    notes.push(
      'goals: added p50 < 1 ms and p99 < 5 ms at 1,000 req/s; throughput >= 0.7x direct; LiteLLM publishes 12/29/43 ms median/p95/p99 added.',
    );
    notes.push(
      'upstream, gateway and load generator are separate processes on the same 2-core machine; access log on, log level warn.',
    );
    return {
      title: `Inference gateway overhead (fixed-response upstream, 64 connections, median of ${rounds} interleaved rounds of ${seconds} s runs)`,
      columns: Object.keys(rows[0] ?? {}),
      rows,
      notes,
      data: { warmRss: warm, afterRss: after, soakRequests: sent },
    };
  } finally {
    gateway.process.kill();
    upstream.process.kill();
  }
}
