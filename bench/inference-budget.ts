// `npm run bench -- inference-budget [--keys N]`: whether budgets are usable to the last token.
// Two `atrium serve --services inference` processes share one PostgreSQL database and a vLLM-like upstream
// (the tests' metering upstream: `/tokenize` counts a quarter of the prompt's bytes, each answer ends by itself
// after its own length or at the max_tokens it was sent). Per traffic shape, N keys of 100,000 tokens each
// are spent by one client per key alternating between the two gateways, and by four concurrent clients per key,
// until the first refusal:
//  - agent: Claude-Code-like, a 45 KB prompt, max_tokens 16384, answers of 4,000–12,000 tokens;
//  - sdk: a default SDK call, a 2 KB prompt, no max_tokens, answers of 300–3,000 tokens.
// Reported: the share of the budget spent before the first refusal (goal ≥ 95 %), the overdraw after all
// settled (stored use over the budget, must be 0), and the request latency through the gateway on those keys
// minus the latency on a key without a budget (what budget admission adds), p50/p99; with exact prompt counting
// (the model server's tokenizer) on and off.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { findApiKey } from '../packages/inference/src/storage/api-keys.js';
import { openInferenceDatabase } from '../packages/inference/src/storage/open.js';
import { answerOf, startMeteringUpstream } from '../packages/inference/test/support/metering-upstream.js';
import { seedTenant } from '../packages/inference/test/support/tenancy.js';
import { type Running, startService } from './lib/atrium-serve.js';
import { percentile } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const MODEL = 'bench/budget';
const CONTEXT = 262_144;
const BUDGET = 100_000;
const PATH = '/v1/chat/completions';

/** A deterministic generator, so every run sends the same traffic. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Shape {
  name: string;
  promptBytes: number;
  maxTokens: number | undefined;
  answer: [number, number];
}

const SHAPES: Shape[] = [
  { name: 'agent (45 KB prompt, max_tokens 16384)', promptBytes: 45_000, maxTokens: 16_384, answer: [4_000, 12_000] },
  { name: 'default SDK (2 KB prompt, no max_tokens)', promptBytes: 2_000, maxTokens: undefined, answer: [300, 3_000] },
];

function body(shape: Shape, random: () => number): string {
  const [low, high] = shape.answer;
  const answer = answerOf(Math.round(low + random() * (high - low)));
  const filler = 'const value = compute(input); // ';
  const text = filler.repeat(Math.ceil(shape.promptBytes / filler.length)).slice(0, shape.promptBytes - 40);
  return JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: `${answer} ${text}` }],
    ...(shape.maxTokens === undefined ? {} : { max_tokens: shape.maxTokens }),
  });
}

interface Outcome {
  status: number;
  tokens: number;
  ms: number;
}

async function send(pool: Pool, secret: string, text: string): Promise<Outcome> {
  const started = performance.now();
  const response = await pool.request({
    method: 'POST',
    path: PATH,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: text,
  });
  const answer = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode !== 200) return { status: response.statusCode, tokens: 0, ms };
  const usage = (JSON.parse(answer) as { usage: { total_tokens: number } }).usage;
  return { status: 200, tokens: usage.total_tokens, ms };
}

/** `clients` loops on one key, each alternating between the gateways, until one is refused; what was spent before. */
async function spendKey(pools: Pool[], secret: string, shape: Shape, clients: number, random: () => number) {
  let spent = 0;
  let refused = false;
  const latencies: number[] = [];
  const statuses = new Set<number>();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; !refused; i++) {
        const outcome = await send(pools[i % pools.length] as Pool, secret, body(shape, random));
        if (outcome.status !== 200) {
          refused = true;
          statuses.add(outcome.status);
          break;
        }
        spent += outcome.tokens;
        latencies.push(outcome.ms);
      }
    }),
  );
  return { spent, latencies, statuses };
}

/** Request latencies on a key without a budget (admission takes from a lease, nothing to fit or count). */
async function unlimitedLatencies(pools: Pool[], secret: string, shape: Shape, count: number, random: () => number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++)
    latencies.push((await send(pools[i % pools.length] as Pool, secret, body(shape, random))).ms);
  return latencies;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export default async function inferenceBudget(args: string[]): Promise<BenchReport> {
  const keysArg = args.indexOf('--keys');
  const keysPerShape = keysArg === -1 ? 6 : Number(args[keysArg + 1]);
  const upstream = await startMeteringUpstream();
  const rows: BenchReport['rows'] = [];
  const data: Record<string, unknown> = { keysPerShape };
  try {
    for (const counting of [true, false]) {
      const config = [
        '[[inference.models]]',
        `id = "${MODEL}"`,
        `contextLength = ${CONTEXT}`,
        `backend = { type = "upstream", replicas = ["${upstream.origin}"] }`,
        '[inference.tenancy]',
        `exactPromptCounting = ${counting}`,
        '',
      ].join('\n');
      const gateways: Running[] = [];
      const env = { ATRIUM_DEMO: '0' };
      try {
        gateways.push(await startService('inference', 'postgres', { config, env }));
        const database = (gateways[0] as Running).database;
        gateways.push(
          await startService('inference', 'postgres', { config, env: { ...env, ATRIUM_INFERENCE_DATABASE: database } }),
        );
        const pools = gateways.map((g) => new Pool(g.origin, { connections: 16 }));
        const { db, close } = await openInferenceDatabase(database);
        try {
          const tenant = await seedTenant(db, {}, Date.now());
          let aliases = 0;
          const newKey = (budgetTokens?: number) =>
            tenant.key({ alias: `k${++aliases}`, ...(budgetTokens ? { budgetTokens } : {}) }, [MODEL], Date.now());
          for (const shape of SHAPES) {
            const random = seeded(42);
            const unlimited = await newKey();
            const baseline = await unlimitedLatencies(pools, unlimited.secret, shape, 60, random);
            for (const clients of [1, 4]) {
              const shares: number[] = [];
              const latencies: number[] = [];
              const statuses = new Set<number>();
              let overdraw = 0;
              for (let k = 0; k < keysPerShape; k++) {
                const { secret, key } = await newKey(BUDGET);
                const spent = await spendKey(pools, secret, shape, clients, random);
                shares.push(spent.spent / BUDGET);
                latencies.push(...spent.latencies);
                for (const status of spent.statuses) statuses.add(status);
                // Leases go back within a second: then the stored use is exact.
                await new Promise((resolve) => setTimeout(resolve, 1_500));
                const used = (await findApiKey(db, key.id))?.period_used ?? 0;
                overdraw = Math.max(overdraw, used - BUDGET, spent.spent - BUDGET);
              }
              const p = (list: number[], q: number) => round(percentile(list, q));
              rows.push({
                traffic: shape.name,
                'clients per key': clients,
                'exact counting': counting ? 'on' : 'off',
                'share before 1st refusal (mean)': `${round(100 * (shares.reduce((a, b) => a + b, 0) / shares.length), 1)} %`,
                'share (min)': `${round(100 * Math.min(...shares), 1)} %`,
                'overdraw tokens': overdraw,
                'refusal status': [...statuses].join(' '),
                'p50 ms': p(latencies, 0.5),
                'p99 ms': p(latencies, 0.99),
                'added p50 ms': round(percentile(latencies, 0.5) - percentile(baseline, 0.5)),
                'added p99 ms': round(percentile(latencies, 0.99) - percentile(baseline, 0.99)),
              });
              data[`${shape.name} ${clients} ${counting}`] = { shares, baseline, latencies };
            }
          }
        } finally {
          await close();
          await Promise.all(pools.map((pool) => pool.close()));
        }
      } finally {
        for (const gateway of gateways.reverse()) await gateway.stop();
      }
    }
    return {
      title: `Inference budgets: 100,000-token keys spent through two gateway processes on one PostgreSQL database (${keysPerShape} keys per row)`,
      columns: Object.keys(rows[0] ?? {}),
      rows,
      notes: [
        'share: tokens served (as the upstream reported them) before the key’s first refusal, over its budget; goal ≥ 95 %. A refusal comes when what is left is less than the next prompt and one output token: an agent whose prompt is 11 % of the budget cannot use the last ~11 % on average-unlucky keys.',
        'overdraw: the key’s stored use (and the sum served) over its budget after every lease went back; must be 0.',
        'p50/p99: request latency through the gateway (the upstream answers at once); added: minus the same traffic on a key without a budget, i.e. what budget admission (fitting, and the /tokenize call when counting is on) adds.',
        'exact counting off: the prompt is reserved at its UTF-8 bytes (about 4× its tokens here), so requests stop fitting earlier.',
      ],
      data,
    };
  } finally {
    await upstream.close();
  }
}
