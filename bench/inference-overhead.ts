// `npm run bench -- inference-overhead [--quick] [--rate N]`: what the inference gateway adds on top of a model
// server, side by side with a peer gateway, in one run against one fixed upstream.
//  1. One fixed-response upstream (a bare node:http responder in its own process) is called directly, through
//     Atrium's gateway (`atrium serve --services inference` from dist: a real key, budget admission, accounting,
//     the default access log), through the Portkey gateway (@portkey-ai/gateway, installed in
//     bench/.scratch/portkey) and through the floor: a bare node:http server relaying to the upstream through an
//     undici pool, what any Node gateway with a client and an upstream socket costs. At N requests/s (default
//     200; open loop, sub-millisecond timing), non-stream and stream: p50/p99 and what each gateway adds, and
//     each process's CPU per request (from /proc, the same way for all), as a ratio to the upstream's own, to
//     the peer's and to the floor's.
//  2. Throughput at 64 connections and CPU per request at that load.
//  3. Atrium's RSS after warm-up and after 100,000 more requests.
//  4. The embedded engine's tokens/s with the generated test model at 1 and 4 concurrent streams.
//  5. Long streams (`--long-only` runs just these): paced 500-chunk streams (one chunk each 24 ms, 12 s), 100 at
//     once, directly, through the floor and through Atrium's /v1/chat/completions and /v1/messages: CPU per
//     chunk and each chunk's delay from the upstream's write to the client's read; then 500 at once through
//     Atrium on its default settings: how many the upstream held at once, and the time to first byte.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { spawnEngine, TEST_MODEL_ID, writeTestModel } from '../packages/inference/src/index.js';
import { type Running, startService } from './lib/atrium-serve.js';
import { load, median, percentileOfSorted } from './lib/load.js';
import { type Portkey, startPortkey } from './lib/portkey.js';
import { cpuMicros, rssBytes } from './lib/process-cpu.js';
import type { BenchReport } from './lib/report.js';

const KEY = 'sk-bench-0123456789abcdef';
const MODEL = 'bench/fixed';
const CHAT = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
const STREAM = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }], stream: true });
const PATH = '/v1/chat/completions';
const JSON_TYPE = { 'content-type': 'application/json' };

// ---- the upstream and the floor proxy: child processes -----------------------------------------------------

/**
 * A prompt asking the upstream for a long stream of N chunks (`paced-long-stream N`), one each `PACE_MS`, each
 * carrying its write time. The chunks are vLLM's: `logprobs: null` in each choice, running usage in every
 * chunk when the request asks for `continuous_usage_stats` (as Atrium does, for accounting a stream the client
 * leaves), a usage-only chunk before `[DONE]` when it asks for `include_usage`.
 */
const PACED = 'paced-long-stream';
const LONG_CHUNKS = 500;
const PACE_MS = 24;
const now = () => performance.timeOrigin + performance.now();
const CHUNK_HEAD = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"Qwen/Qwen3-32B"';
const usageOf = (completion: number) =>
  `"usage":{"prompt_tokens":10,"total_tokens":${10 + completion},"completion_tokens":${completion}}`;
const streamChunk = (delta: string, finish: string | null, usage: string | undefined) =>
  `${CHUNK_HEAD},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]${usage === undefined ? '' : `,${usage}`}}\n\n`;

if (process.env.ATRIUM_BENCH_UPSTREAM) {
  const { recordedVllm, startFixedUpstream } = await import('../packages/inference/test/support/fixed-upstream.js');
  let open = 0;
  let peak = 0;
  const paced = (response: ServerResponse, chunks: number, request: { continuous: boolean; final: boolean }) => {
    peak = Math.max(peak, ++open);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    let sent = 0;
    const timer = setInterval(() => {
      if (sent++ < chunks) {
        const usage = request.continuous ? usageOf(sent) : undefined;
        response.write(streamChunk(`{"content":"t=${now().toFixed(3)};"}`, null, usage));
        return;
      }
      clearInterval(timer);
      const last = streamChunk('{}', 'stop', request.continuous ? usageOf(chunks) : undefined);
      const usage = request.final ? `${CHUNK_HEAD},"choices":[],${usageOf(chunks)}}\n\n` : '';
      response.end(`${last}${usage}data: [DONE]\n\n`);
    }, PACE_MS);
    response.on('close', () => {
      clearInterval(timer);
      open--;
    });
  };
  const upstream = await startFixedUpstream((request, body, response) => {
    // GET /peak: the most streams held at once since the last call.
    if (request.url === '/peak') {
      response.end(String(peak));
      peak = open;
      return;
    }
    const chunks = new RegExp(`${PACED} (\\d+)`).exec(body)?.[1];
    if (chunks) {
      const options = (JSON.parse(body) as { stream_options?: Record<string, boolean> }).stream_options;
      return paced(response, Number(chunks), {
        continuous: options?.continuous_usage_stats === true,
        final: options?.include_usage === true,
      });
    }
    recordedVllm(request, body, response);
  });
  process.send?.({ url: upstream.origin });
  process.on('disconnect', () => process.exit(0));
}

/** The floor: the client's body to the upstream, the upstream's answer back as it arrives, nothing else. */
if (process.env.ATRIUM_BENCH_FLOOR) {
  const upstream = new Pool(process.env.ATRIUM_BENCH_FLOOR, { connections: 128, keepAliveTimeout: 30_000 });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const answer = await upstream.request({
          method: 'POST',
          path: PATH,
          headers: JSON_TYPE,
          body: Buffer.concat(chunks),
        });
        response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type']) });
        answer.body.on('data', (chunk: Buffer) => response.write(chunk));
        answer.body.on('end', () => response.end());
      } catch {
        response.writeHead(502).end();
      }
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
  );
  process.on('disconnect', () => process.exit(0));
}

function startChild(name: string, env: Record<string, string>): Promise<{ process: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ process: child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

// ---- load generation -------------------------------------------------------------------------------------

interface Target {
  name: string;
  origin: string;
  pid: number;
  headers: Record<string, string>;
}

/** Open-loop load at a fixed rate (evenly paced each millisecond), timing each full response with sub-ms precision. */
async function latencyAtRate(target: Target, body: string, rate: number, seconds: number) {
  const pool = new Pool(target.origin, { connections: 64 });
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  let errors = 0;
  const one = async (i: number) => {
    const started = performance.now();
    try {
      const response = await pool.request({ method: 'POST', path: PATH, headers: target.headers, body });
      await response.body.text();
      if (response.statusCode !== 200) errors++;
    } catch {
      errors++;
    }
    latencies[i] = performance.now() - started;
  };
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(one(i));
  }
  await Promise.all(pending);
  await pool.close();
  latencies.sort();
  return {
    p50: percentileOfSorted(latencies, 0.5),
    p99: percentileOfSorted(latencies, 0.99),
    requests: total,
    errors,
  };
}

async function throughput(target: Target, body: string, seconds: number) {
  const result = await load(`${target.origin}${PATH}`, {
    connections: 64,
    durationSeconds: seconds,
    method: 'POST',
    body,
    headers: target.headers,
  });
  return {
    rps: result.requestsPerSecond,
    requests: result.requestsPerSecond * seconds,
    errors: result.errors + result.non2xx,
  };
}

/** Runs `work` and returns its result with the CPU µs per request of the target and of the upstream meanwhile. */
async function withCpu<T extends { requests: number }>(target: Target, upstreamPid: number, work: () => Promise<T>) {
  const before = [cpuMicros(target.pid), cpuMicros(upstreamPid)] as const;
  const result = await work();
  return {
    ...result,
    cpu: (cpuMicros(target.pid) - before[0]) / result.requests,
    upstreamCpu: (cpuMicros(upstreamPid) - before[1]) / result.requests,
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
        const response = await pool.request({ method: 'POST', path: PATH, headers: JSON_TYPE, body });
        const text = await response.body.text();
        tokens += Number(/"completion_tokens":(\d+)/.exec(text.slice(text.lastIndexOf('"usage"')))?.[1] ?? 0);
      }
    }),
  );
  await pool.close();
  return tokens / ((performance.now() - start) / 1000);
}

/**
 * `streams` paced long streams of `chunks` chunks at once through `target`: CPU µs per chunk of its process over
 * the whole run (admission and accounting included) and over the steady state alone (from the moment every
 * stream has its first byte to the moment the first one ends: relaying only), each chunk's delay from the
 * upstream's write to the client's read, and the time to first byte.
 */
async function longStreams(target: Target, path: string, streams: number, chunks = LONG_CHUNKS) {
  const pool = new Pool(target.origin, { connections: streams });
  const body = longRequest(chunks);
  const delays: number[] = [];
  const firstBytes: number[] = [];
  let errors = 0;
  let steady: { cpu: number; chunks: number } | undefined;
  let steadyEnd: typeof steady;
  const mark = () => ({ cpu: cpuMicros(target.pid), chunks: delays.length });
  const one = async () => {
    const started = performance.now();
    const response = await pool.request({ method: 'POST', path, headers: target.headers, body });
    if (response.statusCode !== 200) errors++;
    let pending = '';
    let first = true;
    for await (const piece of response.body) {
      const read = now();
      if (first) {
        firstBytes.push(performance.now() - started);
        if (firstBytes.length === streams) steady = mark();
      }
      first = false;
      pending += String(piece);
      const end = pending.lastIndexOf('\n\n');
      if (end < 0) continue;
      for (const match of pending.slice(0, end).matchAll(/t=([\d.]+);/g)) delays.push(read - Number(match[1]));
      pending = pending.slice(end + 2);
    }
    steadyEnd ??= mark();
  };
  const before = cpuMicros(target.pid);
  await Promise.all(Array.from({ length: streams }, one));
  const cpu = cpuMicros(target.pid) - before;
  await pool.close();
  delays.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  const steadyChunks = steady && steadyEnd ? steadyEnd.chunks - steady.chunks : 0;
  return {
    chunks: delays.length,
    cpuPerChunk: cpu / Math.max(1, delays.length),
    steadyCpuPerChunk: steady && steadyEnd ? (steadyEnd.cpu - steady.cpu) / Math.max(1, steadyChunks) : Number.NaN,
    delayP50: percentileOfSorted(delays, 0.5),
    delayP99: percentileOfSorted(delays, 0.99),
    firstByteP50: percentileOfSorted(firstBytes, 0.5),
    firstByteP99: percentileOfSorted(firstBytes, 0.99),
    errors,
  };
}

/** A long stream's request, the same on both APIs. */
const longRequest = (chunks: number) =>
  JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: `${PACED} ${chunks}` }],
    max_tokens: 1_000,
    stream: true,
  });

type LongRun = Awaited<ReturnType<typeof longStreams>>;
/** One round's runs of one of Atrium's APIs beside the direct streams and the floor. */
interface LongRound {
  direct: LongRun;
  floor: LongRun;
  atrium: LongRun;
}

/** The long-stream rows' columns, in order. */
const LONG_COLUMNS = [
  'mode',
  'process',
  'CPU µs/chunk',
  '× floor per chunk',
  'steady CPU µs/chunk',
  '× floor steady',
  'chunk delay p50 ms',
  'chunk delay p99 ms',
  'added chunk delay p50 ms',
  'first byte p50 ms',
  'first byte p99 ms',
  'upstream streams at once',
  'errors',
];

/** A long-stream row with every column in order, empty where it has no figure. */
const longRow = (fields: BenchReport['rows'][number]): BenchReport['rows'][number] =>
  Object.fromEntries(LONG_COLUMNS.map((column) => [column, fields[column] ?? '']));

const LONG_APIS: Array<[string, string]> = [
  ['Atrium /v1/chat/completions', PATH],
  ['Atrium /v1/messages', '/v1/messages'],
];

/**
 * Rows for rounds of long streams: the direct streams and the floor (medians over all rounds), then each of
 * Atrium's APIs with the median over rounds of its CPU per chunk over the floor's of the same round, and of
 * its chunk delay minus the direct streams' of the same round.
 */
function longRows(mode: string, rounds: LongRound[][]): BenchReport['rows'] {
  const med = (list: LongRun[], pick: (run: LongRun) => number) => median(list.map(pick));
  const all = (which: keyof LongRound) => rounds.flatMap((api) => api.map((round) => round[which]));
  const common = (list: LongRun[]) => ({
    'chunk delay p50 ms': round(med(list, (x) => x.delayP50)),
    'chunk delay p99 ms': round(med(list, (x) => x.delayP99)),
  });
  const timing = (list: LongRun[]) => ({
    'first byte p50 ms': round(med(list, (x) => x.firstByteP50)),
    'first byte p99 ms': round(med(list, (x) => x.firstByteP99)),
    errors: list.reduce((n, x) => n + x.errors, 0),
  });
  const floor = all('floor');
  const rows = [
    { mode, process: 'upstream (direct)', ...common(all('direct')), ...timing(all('direct')) },
    {
      mode,
      process: 'floor (node:http + undici)',
      'CPU µs/chunk': round(
        med(floor, (x) => x.cpuPerChunk),
        1,
      ),
      'steady CPU µs/chunk': round(
        med(floor, (x) => x.steadyCpuPerChunk),
        1,
      ),
      ...common(floor),
      ...timing(floor),
    },
    ...LONG_APIS.map(([name], i) => {
      const api = rounds[i] ?? [];
      const list = api.map((r) => r.atrium);
      const ratio = (pick: (run: LongRun) => number) => round(median(api.map((r) => pick(r.atrium) / pick(r.floor))));
      return {
        mode,
        process: name,
        'CPU µs/chunk': round(
          med(list, (x) => x.cpuPerChunk),
          1,
        ),
        '× floor per chunk': ratio((x) => x.cpuPerChunk),
        'steady CPU µs/chunk': round(
          med(list, (x) => x.steadyCpuPerChunk),
          1,
        ),
        '× floor steady': ratio((x) => x.steadyCpuPerChunk),
        ...common(list),
        'added chunk delay p50 ms': round(median(api.map((r) => r.atrium.delayP50 - r.direct.delayP50))),
        ...timing(list),
      };
    }),
  ];
  return rows.map(longRow);
}

/**
 * The long-stream rows, after a short warm-up of every path:
 *  - one after another: per round, 100 streams directly, through the floor and through each of Atrium's APIs,
 *    each alone on the machine;
 *  - side by side: per round and API, 100 streams directly, 100 through the floor and 100 through Atrium at
 *    the same time, so that all three see the same machine at the same moment (the speed of these shared
 *    machines drifts by ±15 % between runs seconds apart); the floor then batches more per wake-up than Atrium;
 *  - 500 streams through Atrium on its default settings.
 */
async function longStreamRows(
  direct: Target,
  atrium: Target,
  floor: Target,
  upstreamUrl: string,
  rounds: number,
): Promise<{ rows: BenchReport['rows']; runs: { alone: LongRound[][]; together: LongRound[][]; wide: LongRun } }> {
  for (const [, path] of LONG_APIS) await longStreams(atrium, path, 100, 40);
  await longStreams(floor, PATH, 100, 40);
  const alone: LongRound[][] = LONG_APIS.map(() => []);
  const together: LongRound[][] = LONG_APIS.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const d = await longStreams(direct, PATH, 100);
    const f = await longStreams(floor, PATH, 100);
    for (const [i, [, path]] of LONG_APIS.entries())
      alone[i]?.push({ direct: d, floor: f, atrium: await longStreams(atrium, path, 100) });
  }
  for (let r = 0; r < rounds; r++)
    for (const [i, [, path]] of LONG_APIS.entries()) {
      const [d, f, a] = await Promise.all([
        longStreams(direct, PATH, 100),
        longStreams(floor, PATH, 100),
        longStreams(atrium, path, 100),
      ]);
      together[i]?.push({ direct: d, floor: f, atrium: a });
    }
  const shape = `(${LONG_CHUNKS} chunks / ${PACE_MS} ms)`;
  const rows = [
    ...longRows(`long stream ×100 ${shape}, one after another`, alone),
    ...longRows(`long stream ×100 ${shape}, side by side`, together),
  ];
  await fetch(`${upstreamUrl}/peak`);
  const wide = await longStreams(atrium, PATH, 500);
  const peak = Number(await (await fetch(`${upstreamUrl}/peak`)).text());
  rows.push(
    longRow({
      mode: `long stream ×500, default settings`,
      process: 'Atrium /v1/chat/completions',
      'CPU µs/chunk': round(wide.cpuPerChunk, 1),
      'steady CPU µs/chunk': round(wide.steadyCpuPerChunk, 1),
      'chunk delay p50 ms': round(wide.delayP50),
      'chunk delay p99 ms': round(wide.delayP99),
      'first byte p50 ms': round(wide.firstByteP50),
      'first byte p99 ms': round(wide.firstByteP99),
      'upstream streams at once': peak,
      errors: wide.errors,
    }),
  );
  return { rows, runs: { alone, together, wide } };
}

// ---- the benchmark ---------------------------------------------------------------------------------------

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
/** Every column any row has, in the order they first appear. */
const columnsOf = (rows: BenchReport['rows']) => [...new Set(rows.flatMap((row) => Object.keys(row)))];

type Measured = Awaited<ReturnType<typeof withCpu<Awaited<ReturnType<typeof latencyAtRate>>>>>;
type Saturated = Awaited<ReturnType<typeof withCpu<Awaited<ReturnType<typeof throughput>>>>>;

async function embeddedEngineNote(seconds: number): Promise<string> {
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
    return `embedded engine, generated test model, 1 thread: ${Math.round(single)} tokens/s at 1 stream, ${Math.round(four)} tokens/s at 4 streams (${round(four / single)}x; each reply is ~9 tokens, so HTTP and prompt evaluation are included)`;
  } finally {
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function inferenceOverhead(args: string[]): Promise<BenchReport> {
  const quick = args.includes('--quick');
  const longOnly = args.includes('--long-only');
  const rateArg = args.indexOf('--rate');
  const rate = rateArg === -1 ? 200 : Number(args[rateArg + 1]);
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 2 : 4;
  const soakRequests = quick ? 10_000 : 100_000;
  const upstream = await startChild('upstream', { ATRIUM_BENCH_UPSTREAM: '1' });
  const upstreamPid = upstream.process.pid as number;
  let floor: Awaited<ReturnType<typeof startChild>> | undefined;
  let atrium: Running | undefined;
  let portkey: Portkey | undefined;
  const rows: BenchReport['rows'] = [];
  const notes: string[] = [];
  const data: Record<string, unknown> = { rate, rounds, seconds };
  try {
    // 500 long streams come from one address here; clients behind a proxy listed in trustedProxies are apart.
    const config = `[inference]\nmaxConnectionsPerAddress = 1024\n[[inference.models]]\nid = "${MODEL}"\ncontextLength = 32768\nbackend = { type = "upstream", replicas = ["${upstream.url}"] }\n`;
    atrium = await startService('inference', 'sqlite', { config, env: { ATRIUM_DEMO_KEY: KEY } });
    // Long streams compare with the floor only: Portkey is installed for the other rows.
    portkey = longOnly ? undefined : await startPortkey();
    floor = await startChild('floor proxy', { ATRIUM_BENCH_FLOOR: upstream.url });
    const targets: Target[] = [
      { name: 'upstream (direct)', origin: upstream.url, pid: upstreamPid, headers: JSON_TYPE },
      {
        name: 'Atrium',
        origin: atrium.origin,
        pid: atrium.pid,
        headers: { ...JSON_TYPE, authorization: `Bearer ${KEY}` },
      },
      { name: 'floor (node:http + undici)', origin: floor.url, pid: floor.process.pid as number, headers: JSON_TYPE },
    ];
    if (portkey)
      targets.push({
        name: 'Portkey',
        origin: portkey.origin,
        pid: portkey.pid,
        headers: { ...JSON_TYPE, ...portkey.headers(upstream.url, KEY) },
      });
    for (const [mode, body] of longOnly
      ? []
      : ([
          ['non-stream', CHAT],
          ['stream', STREAM],
        ] as const)) {
      // Warm every path (connections, JIT) before measuring.
      for (const target of targets) await throughput(target, body, 1);
      const paced: Measured[][] = targets.map(() => []);
      const saturated: Saturated[][] = targets.map(() => []);
      // Interleaved rounds: each target in turn, so drifting machine load touches all of them alike.
      for (let r = 0; r < rounds; r++) {
        for (const [i, target] of targets.entries())
          paced[i]?.push(await withCpu(target, upstreamPid, () => latencyAtRate(target, body, rate, seconds)));
        for (const [i, target] of targets.entries())
          saturated[i]?.push(await withCpu(target, upstreamPid, () => throughput(target, body, seconds)));
      }
      const m = <T>(list: T[] | undefined, pick: (x: T) => number) => median((list ?? []).map(pick));
      const direct = { p50: m(paced[0], (x) => x.p50), p99: m(paced[0], (x) => x.p99), cpu: m(paced[0], (x) => x.cpu) };
      const directSaturated = { rps: m(saturated[0], (x) => x.rps), cpu: m(saturated[0], (x) => x.cpu) };
      const peerCpu = m(paced[3], (x) => x.cpu);
      const peerSaturatedCpu = m(saturated[3], (x) => x.cpu);
      const floorCpu = m(paced[2], (x) => x.cpu);
      const floorSaturatedCpu = m(saturated[2], (x) => x.cpu);
      for (const [i, target] of targets.entries()) {
        const cpu = m(paced[i], (x) => x.cpu);
        const saturatedCpu = m(saturated[i], (x) => x.cpu);
        const rps = m(saturated[i], (x) => x.rps);
        const isGateway = i > 0;
        rows.push({
          mode,
          process: target.name,
          'p50 ms': round(m(paced[i], (x) => x.p50)),
          'p99 ms': round(m(paced[i], (x) => x.p99)),
          'added p50 ms': isGateway ? round(m(paced[i], (x) => x.p50) - direct.p50) : '',
          'added p99 ms': isGateway ? round(m(paced[i], (x) => x.p99) - direct.p99) : '',
          'CPU µs/req': Math.round(cpu),
          '× upstream': round(cpu / direct.cpu),
          '× Portkey': isGateway ? round(cpu / peerCpu) : '',
          '× floor': isGateway ? round(cpu / floorCpu) : '',
          'req/s at 64 conn': Math.round(rps),
          'throughput × direct': round(rps / directSaturated.rps),
          'CPU µs/req at 64 conn': Math.round(saturatedCpu),
          '× upstream at 64 conn': round(saturatedCpu / directSaturated.cpu),
          '× Portkey at 64 conn': isGateway ? round(saturatedCpu / peerSaturatedCpu) : '',
          '× floor at 64 conn': isGateway ? round(saturatedCpu / floorSaturatedCpu) : '',
          errors: [...(paced[i] ?? []), ...(saturated[i] ?? [])].reduce((n, x) => n + x.errors, 0),
        });
      }
      data[mode] = { paced, saturated };
    }

    const [direct, atriumTarget, floorTarget] = targets as [Target, Target, Target];
    const long = await longStreamRows(direct, atriumTarget, floorTarget, upstream.url, quick ? 1 : 5);
    rows.push(...long.rows);
    data.longStreams = long.runs;
    notes.push(
      `long streams: CPU µs/chunk is the process's CPU over the whole run (admission, accounting and the access log included) per chunk relayed; steady is the same from the moment every stream has its first byte to the moment the first one ends (relaying only). × floor: the median over rounds of Atrium's figure over the floor's in the same round (goal ≤ 1.2 on both APIs). The upstream sends vLLM's chunks, with running usage in each when asked for (Atrium asks, to account a stream its client leaves; the floor does not), and names its loaded model, which Atrium replaces by the public id, so Atrium rewrites every chunk where the floor copies it.`,
    );
    if (longOnly) return { title: 'Inference gateway: long streams', columns: LONG_COLUMNS, rows, notes, data };
    const warm = rssBytes(atrium.pid);
    const soakStart = performance.now();
    let sent = 0;
    while (sent < soakRequests) sent += Math.round((await throughput(targets[1] as Target, CHAT, 5)).requests);
    const after = rssBytes(atrium.pid);
    notes.push(
      `Atrium RSS: ${round(warm / 1024 / 1024, 1)} MB after warm-up, ${round(after / 1024 / 1024, 1)} MB after ~${sent} more requests (${round((performance.now() - soakStart) / 1000, 1)} s): growth ${round((after - warm) / 1024 / 1024, 1)} MB (goal < 50 MB)`,
    );
    Object.assign(data, { warmRss: warm, afterRss: after, soakRequests: sent });
    notes.push(await embeddedEngineNote(seconds));
    notes.push(
      `CPU µs/req: the process's own CPU (sum of its threads' run time in /proc) over the requests of that run; for the gateways the upstream's share is not included. × upstream: that CPU over what the upstream spends per request when called directly (goal for Atrium: ≤ 2×, non-stream and stream, with admission and accounting on). The floor is a bare node:http server relaying each request to the upstream through an undici pool (no parsing, auth, accounting or logging): what any Node gateway pays for a client socket and an upstream socket; × floor is the rest.`,
    );
    notes.push(
      `goals: added p50 < 1 ms and p99 < 5 ms; Portkey (@portkey-ai/gateway 1.15.2 with @hono/node-server 1.13.5) sleeps ~25 ms before a stream's first event.`,
    );
    notes.push(
      'upstream, the gateways, the floor proxy and the load generator are separate processes on the same machine; Atrium runs as `atrium serve` on SQLite with its default logging (info, access log on).',
    );
    return {
      title: `Inference gateway overhead: fixed-response upstream vs Atrium vs Portkey vs a bare proxy (paced at ${rate} req/s, then 64 connections; median of ${rounds} interleaved rounds of ${seconds} s)`,
      columns: columnsOf(rows),
      rows,
      notes,
      data,
    };
  } finally {
    portkey?.stop();
    floor?.process.kill();
    await atrium?.stop();
    upstream.process.kill();
  }
}
