// An in-process bench service on a fresh SQLite file or PostgreSQL schema, with a user and a project.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigSchema, buildBenchApp, createUserAccount, issueCredential, openBenchDatabase } from '@atrium/bench';
import { createLogger } from '@atrium/core';
import { createTestDatabase } from '@atrium/core/testing/support';

export type Dialect = 'sqlite' | 'postgres';

export interface BenchService {
  base: string;
  url: string;
  token: string;
  post(path: string, body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function startBenchService(dialect: Dialect): Promise<BenchService> {
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-data-'));
  // ATRIUM_BENCH_PERF_THREADS=0 answers perf queries on the event loop, for a side-by-side comparison.
  const threads = process.env.ATRIUM_BENCH_PERF_THREADS;
  const config = benchConfigSchema.parse({
    port: 0,
    database: database.url,
    bodyLimit: 64 * 1024 * 1024,
    ...(threads === undefined ? {} : { perfThreads: Number(threads) }),
  });
  const seed = await openBenchDatabase(database.url);
  await createUserAccount(seed.db, { name: 'Bench Runner', email: 'runner@bench.local' });
  const token = await issueCredential(seed.db, config, dataDir, { email: 'runner@bench.local', kind: 'jwt' });
  await seed.close();
  const app = await buildBenchApp(config, { logger: createLogger({ level: 'silent' }), dataDir, accessLog: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await post('/v0/organizations/bench-runner/projects', { name: 'Bench', slug: 'bench' });
  return {
    base,
    url: database.url,
    token,
    post,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A BMF report body: `benchmarks` benchmarks × the given measures, values around `base` with noise. */
export function bmfReport(second: number, benchmarks: number, measures: string[], base = 1000) {
  const results: Record<string, Record<string, { value: number }>> = {};
  for (let b = 0; b < benchmarks; b++) {
    const entry: Record<string, { value: number }> = {};
    for (const measure of measures) entry[measure] = { value: base + b + ((second * 7 + b * 3) % 11) };
    results[`bench::case_${String(b).padStart(3, '0')}`] = entry;
  }
  const time = new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();
  return {
    branch: 'main',
    testbed: 'ci-runner',
    hash: second.toString(16).padStart(40, '0'),
    start_time: time,
    end_time: time,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
  };
}
