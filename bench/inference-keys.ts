// `npm run bench -- inference-keys [--requests N]`: what API keys cost the inference gateway.
//  1. Added latency on the request path: key lookup + atomic budget admission (from the process's leases of
//     the key's and resource's counters, refilled by conditional UPDATEs), issued open-loop at 1,000
//     requests/s on one key, SQLite and PostgreSQL; the settlement (after the response) and the batched
//     usage accounting are timed separately. After the run, the key's stored use must equal what was served.
//  2. Usage storage after N simulated requests (default 10 million) over 1,000 keys, 2 models and 7 days:
//     rows in usage_hourly, and the time of the UI's usage queries (one key's 7-day chart, a resource's key list).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '@atrium/core';
import type { Kysely } from 'kysely';
import { createTestDatabase, type TestDialect } from '../packages/core/src/testing/databases.js';
import { modelSchema } from '../packages/inference/src/config.js';
import { findApiKey } from '../packages/inference/src/storage/api-keys.js';
import { openInferenceDatabase } from '../packages/inference/src/storage/open.js';
import type { InferenceDatabase } from '../packages/inference/src/storage/schema.js';
import { usageOfKey, usageTotalsOfKeys } from '../packages/inference/src/storage/usage.js';
import { Admission } from '../packages/inference/src/tenancy/admission.js';
import { KeyStore } from '../packages/inference/src/tenancy/key-store.js';
import { UsageRecorder } from '../packages/inference/src/tenancy/usage-recorder.js';
import { seedTenant } from '../packages/inference/test/support/tenancy.js';
import { median, percentileOfSorted } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const logger = createLogger({ level: 'warn' });
const HOUR = 3_600_000;
const model = modelSchema.parse({
  id: 'bench/a',
  contextLength: 32_768,
  backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openDb(dialect: TestDialect) {
  if (dialect === 'postgres') {
    const test = await createTestDatabase('postgres');
    const database = await openInferenceDatabase(test.url);
    const close = async () => {
      await database.close();
      await test.drop();
    };
    return { db: database.db, close };
  }
  const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-keys-'));
  const database = await openInferenceDatabase(`sqlite:${join(dir, 'inference.db')}`);
  const close = async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db: database.db, close };
}

/** Open loop at `rate`/s for `count` requests: each admission starts on schedule whatever the others do. */
async function admissionLatency(db: Kysely<InferenceDatabase>, count: number, rate: number) {
  const tenant = await seedTenant(db, {}, Date.now());
  const { secret, key: row } = await tenant.key(
    { alias: 'bench', budgetTokens: 10 ** 12, resetPeriod: 'day' },
    [model.id],
    Date.now(),
  );
  const keys = new KeyStore(db);
  const usage = new UsageRecorder(db, logger);
  const admission = new Admission(db, keys, usage, logger);
  const admit: number[] = [];
  const settle: number[] = [];
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      (async () => {
        const t0 = performance.now();
        const key = await keys.lookup(secret);
        if (!key) throw new Error('key not found');
        const ticket = await admission.admit({ key, model, promptBound: 40, output: { choices: 1, requested: 200 } });
        const t1 = performance.now();
        ticket.settle(30, 120);
        settle.push(performance.now() - t1);
        admit.push(t1 - t0);
      })(),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  const flushStart = performance.now();
  await admission.close();
  await usage.close();
  const flushMs = performance.now() - flushStart;
  const stored = await findApiKey(db, row.id);
  if (stored?.period_used !== count * 150)
    throw new Error(`stored use ${stored?.period_used} is not the ${count * 150} tokens served`);
  admit.sort((a, b) => a - b);
  settle.sort((a, b) => a - b);
  return { admit, settle, achievedRate: count / elapsed, flushMs };
}

/** N simulated requests through the usage recorder, then the UI's queries. */
async function usageAtScale(db: Kysely<InferenceDatabase>, requests: number) {
  const tenant = await seedTenant(db, {}, Date.now());
  const keyIds: string[] = [];
  for (let i = 0; i < 1000; i++) keyIds.push((await tenant.key({ alias: `k${i}` }, [], Date.now())).key.id);
  const usage = new UsageRecorder(db, logger, 3_600_000);
  const end = Date.now() - (Date.now() % HOUR);
  const span = 7 * 24 * HOUR;
  const simulateStart = performance.now();
  for (let i = 0; i < requests; i++) {
    const at = end - span + Math.floor((i / requests) * span);
    usage.record(keyIds[i % 1000] ?? '', i % 3 === 0 ? 'bench/b' : 'bench/a', at, 30, 120, 150);
    // One batch per simulated hour, as the 1-second flushes of a real gateway would add up.
    if (i % Math.ceil(requests / 168) === 0) await usage.flush();
  }
  await usage.close();
  const simulateSeconds = (performance.now() - simulateStart) / 1000;
  const rows = Number(
    (
      await db
        .selectFrom('usage_hourly')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const chart: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < 30; i++) {
    const key = keyIds[(i * 37) % 1000] ?? '';
    let t = performance.now();
    await usageOfKey(db, key, end - span, end + HOUR);
    chart.push(performance.now() - t);
    t = performance.now();
    await usageTotalsOfKeys(db, keyIds.slice(i * 20, i * 20 + 20), end - 30 * 24 * HOUR);
    list.push(performance.now() - t);
  }
  return { rows, simulateSeconds, chartMs: median(chart), listMs: median(list) };
}

export default async function inferenceKeys(args: string[]): Promise<BenchReport> {
  const at = args.indexOf('--requests');
  const simulated = at === -1 ? 10_000_000 : Number(args[at + 1]);
  const rows: BenchReport['rows'] = [];
  const data: Record<string, unknown> = {};
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const a = await openDb(dialect);
    try {
      const result = await admissionLatency(a.db, 5_000, 1_000);
      rows.push({
        dialect,
        measure: 'lookup + admission (request path)',
        p50: percentileOfSorted(result.admit, 0.5),
        p99: percentileOfSorted(result.admit, 0.99),
        detail: `${Math.round(result.achievedRate)} req/s achieved`,
      });
      rows.push({
        dialect,
        measure: 'settlement (after the response)',
        p50: percentileOfSorted(result.settle, 0.5),
        p99: percentileOfSorted(result.settle, 0.99),
        detail: `leases given back + final usage flush ${result.flushMs.toFixed(1)} ms; stored use exact`,
      });
    } finally {
      await a.close();
    }
    const b = await openDb(dialect);
    try {
      const scale = await usageAtScale(b.db, simulated);
      data[dialect] = scale;
      rows.push({
        dialect,
        measure: `usage of ${simulated.toLocaleString('en')} requests`,
        p50: scale.chartMs,
        p99: scale.listMs,
        detail: `${scale.rows} rows (1,000 keys × 2 models × 168 h max); simulated in ${scale.simulateSeconds.toFixed(1)} s`,
      });
    } finally {
      await b.close();
    }
  }
  return {
    title: 'inference-keys: API-key authentication, budget admission and usage accounting (ms)',
    columns: ['dialect', 'measure', 'p50', 'p99', 'detail'],
    rows,
    notes: [
      'Goal: < 1 ms p99 added on the request path at 1,000 req/s; usage page < 50 ms.',
      'Usage rows: for the "usage of N requests" lines, p50 = one key\'s 7-day chart query (median), p99 column = a 20-key list total query (median).',
      'Storage grows with keys × models × hours, not with requests.',
    ],
    data,
  };
}
