// `npm run bench -- inference-budget [--keys N]`: whether budgets are usable to the last token.
// Two `atrium serve --services inference` processes share one PostgreSQL database and a vLLM-like upstream
// (the tests' metering upstream: `/tokenize` counts a quarter of the prompt's bytes, each answer ends by itself
// after its own length or at the max_tokens it was sent). Per traffic shape, N keys of 100,000 tokens each
// are spent by one client per key alternating between the two gateways, and by four concurrent clients per key,
// until the first refusal:
//  - agent: Claude-Code-like, a 45 KB prompt, max_tokens 16384, answers of 4,000–12,000 tokens;
//  - sdk: a default SDK call, a 2 KB prompt, no max_tokens, answers of 300–3,000 tokens.
// Reported: the share of the budget spent before the first refusal (goal ≥ 95 %), that share over the share an
// oracle admission would reach on the same request sequence (the best any admission that never overdraws can do),
// the overdraw after all
// settled (stored use over the budget, must be 0), and the request latency through the gateway on those keys
// minus the latency on a key without a budget (what budget admission adds), p50/p99; with exact prompt counting
// (the model server's tokenizer) on and off.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { findApiKey } from '../packages/inference/src/storage/api-keys.js';
import { openInferenceDatabase } from '../packages/inference/src/storage/open.js';
import {
  answerOf,
  type Body,
  promptTokens,
  startMeteringUpstream,
} from '../packages/inference/test/support/metering-upstream.js';
import { seedTenant } from '../packages/inference/test/support/tenancy.js';
import { type Running, startService } from './lib/atrium-serve.js';
import { attainableSpend, type MeteredRequest } from './lib/budget-oracle.js';
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

/** A request body and what the metering upstream makes of it: its prompt tokens and, uncapped by a budget, its output. */
interface Drawn extends MeteredRequest {
  text: string;
}

function draw(shape: Shape, random: () => number): Drawn {
  const [low, high] = shape.answer;
  const answerTokens = Math.round(low + random() * (high - low));
  const filler = 'const value = compute(input); // ';
  const text = filler.repeat(Math.ceil(shape.promptBytes / filler.length)).slice(0, shape.promptBytes - 40);
  const request: Body = {
    model: MODEL,
    messages: [{ role: 'user', content: `${answerOf(answerTokens)} ${text}` }],
    ...(shape.maxTokens === undefined ? {} : { max_tokens: shape.maxTokens }),
  };
  const prompt = promptTokens(request);
  return {
    text: JSON.stringify(request),
    prompt,
    output: Math.min(answerTokens, shape.maxTokens ?? CONTEXT - prompt),
  };
}

interface Outcome {
  status: number;
  tokens: number;
  promptTokens: number;
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
  if (response.statusCode !== 200) return { status: response.statusCode, tokens: 0, promptTokens: 0, ms };
  const usage = (JSON.parse(answer) as { usage: { prompt_tokens: number; total_tokens: number } }).usage;
  return { status: 200, tokens: usage.total_tokens, promptTokens: usage.prompt_tokens, ms };
}

/**
 * `clients` loops on one key, each alternating between the gateways, until one is refused; what was spent before,
 * and the requests in the order they were drawn (the refused one and any still in flight included).
 */
async function spendKey(pools: Pool[], secret: string, shape: Shape, clients: number, random: () => number) {
  let spent = 0;
  let refused = false;
  const latencies: number[] = [];
  const statuses = new Set<number>();
  const sequence: Drawn[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; !refused; i++) {
        const request = draw(shape, random);
        sequence.push(request);
        const outcome = await send(pools[i % pools.length] as Pool, secret, request.text);
        if (outcome.status === 200 && outcome.promptTokens !== request.prompt)
          throw new Error(`the upstream counted ${outcome.promptTokens} prompt tokens, the oracle ${request.prompt}`);
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
  return { spent, latencies, statuses, sequence };
}

/** The key's requests as drawn, then those its clients would have sent next, until the oracle refuses one. */
function* continued(sequence: Drawn[], shape: Shape, random: () => number): Generator<MeteredRequest> {
  yield* sequence;
  for (;;) yield draw(shape, random);
}

/** Request latencies on a key without a budget (admission takes from a lease, nothing to fit or count). */
async function unlimitedLatencies(pools: Pool[], secret: string, shape: Shape, count: number, random: () => number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++)
    latencies.push((await send(pools[i % pools.length] as Pool, secret, draw(shape, random).text)).ms);
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
            const unlimited = await newKey();
            const baseline = await unlimitedLatencies(pools, unlimited.secret, shape, 60, seeded(42));
            for (const clients of [1, 4]) {
              const shares: number[] = [];
              const attainable: number[] = [];
              const latencies: number[] = [];
              const statuses = new Set<number>();
              let overdraw = 0;
              for (let k = 0; k < keysPerShape; k++) {
                const { secret, key } = await newKey(BUDGET);
                // Key k draws the same requests in every row, so rows compare on the same traffic.
                const random = seeded(1_000 + k);
                const spent = await spendKey(pools, secret, shape, clients, random);
                shares.push(spent.spent / BUDGET);
                attainable.push(attainableSpend(BUDGET, continued(spent.sequence, shape, random)) / BUDGET);
                latencies.push(...spent.latencies);
                for (const status of spent.statuses) statuses.add(status);
                // Leases go back within a second: then the stored use is exact.
                await new Promise((resolve) => setTimeout(resolve, 1_500));
                const used = (await findApiKey(db, key.id))?.period_used ?? 0;
                overdraw = Math.max(overdraw, used - BUDGET, spent.spent - BUDGET);
              }
              const p = (list: number[], q: number) => round(percentile(list, q));
              const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
              const ofAttainable = shares.map((share, i) => share / (attainable[i] as number));
              const percent = (n: number) => `${round(100 * n, 1)} %`;
              rows.push({
                traffic: shape.name,
                'clients per key': clients,
                'exact counting': counting ? 'on' : 'off',
                'share before 1st refusal (mean)': percent(mean(shares)),
                'share (min)': percent(Math.min(...shares)),
                'attainable (mean)': percent(mean(attainable)),
                'share of attainable (mean)': percent(mean(ofAttainable)),
                'share of attainable (min)': percent(Math.min(...ofAttainable)),
                'overdraw tokens': overdraw,
                'refusal status': [...statuses].join(' '),
                'p50 ms': p(latencies, 0.5),
                'p99 ms': p(latencies, 0.99),
                'added p50 ms': round(percentile(latencies, 0.5) - percentile(baseline, 0.5)),
                'added p99 ms': round(percentile(latencies, 0.99) - percentile(baseline, 0.99)),
              });
              data[`${shape.name} ${clients} ${counting}`] = { shares, attainable, baseline, latencies };
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
        'attainable: the share an oracle admission reaches offline on the same request sequence (the prompts and the outputs the upstream gives each request when only its own max_tokens caps it, in the order drawn, then the requests the clients would have sent next): it admits in order while prompt + 1 fits what is left, each admitted request using its prompt and its output capped at what is left, and stops at the first that does not fit — the most any admission that never overdraws can spend of that sequence. share of attainable: share over attainable per key. With four clients per key the oracle is the same sequential bound over the order the requests were drawn in.',
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
