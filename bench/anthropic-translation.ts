// `npm run bench -- anthropic-translation`: what translating to Anthropic's Messages API adds to a stream.
//  1. CPU: one 1,000-token upstream stream through the /v1/chat/completions relay (SseRelay) and through the
//     Anthropic state machine (AnthropicStream), interleaved rounds, median per stream.
//  2. Allocation: heap retained by one translator after 100,000 chunks (after GC), and time per chunk at
//     1,000 vs 10,000 tokens (constant per-chunk cost = no growth).
//  3. End to end: the same 1,000-token stream requested on /v1/messages and /v1/chat/completions through the
//     gateway (in process, fixed upstream), interleaved, median latency and CPU per request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLogger } from '@atrium/core';
import { Pool } from 'undici';
import { AnthropicStream } from '../packages/inference/src/anthropic/stream.js';
import { buildInferenceApp, inferenceConfigSchema } from '../packages/inference/src/index.js';
import { SseRelay } from '../packages/inference/src/wire/sse-relay.js';
import { startFixedUpstream } from '../packages/inference/test/support/fixed-upstream.js';
import { median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const MODEL = 'bench/fixed';
type Sample = { ms: number; cpuUs: number };
const KEY = 'sk-bench-0123456789abcdef';
const PIECE = 16 * 1024;

/** A vLLM stream of `tokens` one-token content chunks with running usage, as the gateway requests it. */
function upstreamStream(tokens: number): string {
  const head =
    '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735142223,"model":"bench/fixed","choices":';
  const usage = (n: number) => `"usage":{"prompt_tokens":12,"total_tokens":${12 + n},"completion_tokens":${n}}`;
  let out = `data: ${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],${usage(0)}}\n\n`;
  for (let i = 1; i <= tokens; i++) {
    out += `data: ${head}[{"index":0,"delta":{"content":" word${i % 97}"},"logprobs":null,"finish_reason":null}],${usage(i)}}\n\n`;
  }
  out += `data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length","stop_reason":null}],${usage(tokens)}}\n\n`;
  return `${out}data: ${head}[],${usage(tokens)}}\n\ndata: [DONE]\n\n`;
}

/** The stream as the socket hands it over: 16 KiB pieces of bytes. */
const pieces = (text: string) => {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += PIECE) out.push(bytes.subarray(i, i + PIECE));
  return out;
};

type Translator = { push(chunk: Buffer): string | Buffer; readonly incomplete: string | Buffer };
const relay = (): Translator => new SseRelay({ final: false, continuous: false }, MODEL);
const anthropic = (): Translator =>
  new AnthropicStream({ model: MODEL, stopSequences: undefined, estimatedInputTokens: 12 });

function timeStream(make: () => Translator, input: readonly Buffer[]): number {
  const started = process.hrtime.bigint();
  const translator = make();
  let bytes = 0;
  for (const piece of input) bytes += translator.push(piece).length;
  bytes += translator.incomplete.length;
  if (bytes === 0) throw new Error('nothing translated');
  return Number(process.hrtime.bigint() - started) / 1000;
}

function cpuMedians(tokens: number, rounds: number) {
  const input = pieces(upstreamStream(tokens));
  const [chat, messages]: [number[], number[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    chat.push(timeStream(relay, input));
    messages.push(timeStream(anthropic, input));
  }
  return { chat: median(chat), messages: median(messages) };
}

function retainedAfter(chunks: number): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const chunk = Buffer.from(`${upstreamStream(100).split('\n\n')[5]}\n\n`);
  const translator = anthropic();
  translator.push(Buffer.from(`${upstreamStream(0).split('\n\n')[0]}\n\n`));
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < chunks; i++) translator.push(chunk);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  if (translator.incomplete === undefined) throw new Error('unreachable');
  return retained;
}

async function endToEnd(rounds: number) {
  const stream = upstreamStream(1000);
  const upstream = await startFixedUpstream((_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(stream);
  });
  const config = inferenceConfigSchema.parse({
    port: 0,
    auth: { demoKey: KEY },
    models: [{ id: MODEL, contextLength: 32_768, backend: { type: 'upstream', replicas: [upstream.origin] } }],
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-'));
  const app = await buildInferenceApp(config, { logger: createLogger({ level: 'warn' }), dataDir, accessLog: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
  const messages = { model: MODEL, max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }], stream: true };
  const chat = { model: MODEL, max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }], stream: true };
  const once = async (path: string, body: unknown) => {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const response = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode !== 200 || !text.includes('stop')) throw new Error(`${path}: ${response.statusCode}`);
    const used = process.cpuUsage(cpu);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuUs: used.user + used.system };
  };
  const results = { chat: [] as Sample[], messages: [] as Sample[] };
  try {
    for (let i = 0; i < rounds + 10; i++) {
      // Alternate which goes first: each request's accounting settles while the next one runs.
      let c: Sample;
      let m: Sample;
      if (i % 2 === 0) {
        c = await once('/v1/chat/completions', chat);
        m = await once('/v1/messages', messages);
      } else {
        m = await once('/v1/messages', messages);
        c = await once('/v1/chat/completions', chat);
      }
      if (i < 10) continue;
      results.chat.push(c);
      results.messages.push(m);
    }
  } finally {
    await pool.close();
    await app.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const summary = (list: Sample[]) => ({
    ms: median(list.map((r) => r.ms)),
    cpuUs: median(list.map((r) => r.cpuUs)),
  });
  return { chat: summary(results.chat), messages: summary(results.messages) };
}

export default async function run(): Promise<BenchReport> {
  cpuMedians(1000, 50);
  const small = cpuMedians(1000, 300);
  const large = cpuMedians(10_000, 30);
  const retained = retainedAfter(100_000);
  const e2e = await endToEnd(200);
  const perChunk = (us: number, tokens: number) => (us * 1000) / tokens;
  const rows: BenchReport['rows'] = [
    {
      measure: 'translation CPU, 1,000-token stream (µs)',
      'chat/completions': small.chat,
      messages: small.messages,
      added: small.messages - small.chat,
    },
    {
      measure: 'per chunk at 1,000 tokens (ns)',
      'chat/completions': perChunk(small.chat, 1000),
      messages: perChunk(small.messages, 1000),
      added: perChunk(small.messages - small.chat, 1000),
    },
    {
      measure: 'per chunk at 10,000 tokens (ns)',
      'chat/completions': perChunk(large.chat, 10_000),
      messages: perChunk(large.messages, 10_000),
      added: perChunk(large.messages - large.chat, 10_000),
    },
    {
      measure: 'end to end, 1,000-token stream (ms, median)',
      'chat/completions': e2e.chat.ms,
      messages: e2e.messages.ms,
      added: e2e.messages.ms - e2e.chat.ms,
    },
    {
      measure: 'end to end CPU per request, gateway+upstream+client (µs)',
      'chat/completions': e2e.chat.cpuUs,
      messages: e2e.messages.cpuUs,
      added: e2e.messages.cpuUs - e2e.chat.cpuUs,
    },
  ];
  return {
    title: 'Anthropic /v1/messages translation overhead vs /v1/chat/completions (1,000-token streams)',
    columns: ['measure', 'chat/completions', 'messages', 'added'],
    rows,
    notes: [
      `goal: < 0.5 ms added per request; measured ${((small.messages - small.chat) / 1000).toFixed(3)} ms of translation CPU, ${(e2e.messages.ms - e2e.chat.ms).toFixed(3)} ms end to end`,
      `heap retained by one translator after 100,000 chunks: ${(retained / 1024).toFixed(1)} KiB (no per-chunk growth if ~0)`,
      'in process: upstream, gateway and client share one event loop; compare the columns, not absolute numbers',
    ],
    data: { small, large, retained, e2e },
  };
}
