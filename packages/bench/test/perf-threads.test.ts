import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, listen, postgresAvailable, silentLogger, type TestDatabase } from '@atrium/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PerfQuerystring, type PerfRequest, parsePerfRequest } from '../src/domain/perf-query.js';
import { benchConfigSchema, buildBenchApp, openBenchDatabase } from '../src/index.js';
import { findProject } from '../src/storage/projects.js';
import type { Project } from '../src/storage/types.js';
import { JOBS_PER_THREAD, perfRenderer } from '../src/workers/perf-threads.js';
import { type Bench, bmf, seedProject, startBench } from './harness.js';

const BENCHMARKS = 255;
const REPORTS = 120;

const report = (second: number) => ({
  branch: 'main',
  testbed: 'lab',
  hash: `${second}`.padStart(40, '0'),
  start_time: new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString(),
  end_time: new Date(Date.UTC(2026, 0, 1) + second * 1000 + 500).toISOString(),
  results: [
    bmf(Object.fromEntries(Array.from({ length: BENCHMARKS }, (_, b) => [`case_${b}`, { latency: b + second }]))),
  ],
});

/** The whole history of every benchmark: the slowest plot a caller can ask for. */
function parsed(query: PerfQuerystring): PerfRequest {
  const request = parsePerfRequest(query);
  if (typeof request === 'string') throw new Error(request);
  return request;
}

async function wholeHistoryPath(bench: Bench): Promise<string> {
  const list = async (plural: string) =>
    ((await bench.json('GET', `/v0/projects/the-computer/${plural}?per_page=255`)) as { uuid: string; slug: string }[])
      .map((row) => row.uuid)
      .join(',');
  const measures = (await bench.json('GET', '/v0/projects/the-computer/measures')) as { uuid: string; slug: string }[];
  const testbeds = (await bench.json('GET', '/v0/projects/the-computer/testbeds')) as { uuid: string; slug: string }[];
  return `/v0/projects/the-computer/perf?branches=${await list('branches')}&testbeds=${testbeds.find((row) => row.slug === 'lab')?.uuid}&benchmarks=${await list('benchmarks')}&measures=${measures.find((row) => row.slug === 'latency')?.uuid}`;
}

/** How long the plot of a public project took, and the longest the event loop was held meanwhile. */
async function timedPlot(base: string, path: string): Promise<{ plotMs: number; heldMs: number; bytes: number }> {
  let last = performance.now();
  let heldMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const response = await fetch(`${base}${path}`);
  const plotMs = performance.now() - started;
  await sleep(5);
  clearInterval(ticker);
  expect(response.status).toBe(200);
  return { plotMs, heldMs, bytes: (await response.arrayBuffer()).byteLength };
}

describe('perf queries in worker threads (SQLite)', () => {
  let database: TestDatabase;
  let path: string;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const seeding = await startBench(database.url);
    await seedProject(seeding);
    for (let second = 0; second < REPORTS; second++) {
      await seeding.json('POST', '/v0/projects/the-computer/reports', { token: seeding.muriel, body: report(second) });
    }
    path = await wholeHistoryPath(seeding);
    await seeding.close();
  }, 120_000);
  afterAll(() => database.drop());

  it('a plot of a whole history holds the event loop on it, and not from a worker thread', async () => {
    const serve = async (perfThreads: number) => {
      const config = benchConfigSchema.parse({ port: 0, database: database.url, perfThreads });
      const app = await buildBenchApp(config, {
        logger: silentLogger,
        dataDir: mkdtempSync(join(tmpdir(), 'atrium-perf-threads-')),
        accessLog: false,
      });
      return { app, base: await listen(app) };
    };
    const onLoop = await serve(0);
    const held = await timedPlot(onLoop.base, path).finally(() => onLoop.app.close());
    const threaded = await serve(2);
    await timedPlot(threaded.base, path);
    const free = await timedPlot(threaded.base, path).finally(() => threaded.app.close());
    expect(free.bytes).toBe(held.bytes);
    expect(free.bytes).toBeGreaterThan(REPORTS * BENCHMARKS * 300);
    expect(held.heldMs).toBeGreaterThan(held.plotMs / 2);
    expect(free.heldMs).toBeLessThan(Math.min(50, free.plotMs / 2));
  });

  it('gives a thread JOBS_PER_THREAD queries, queues maxQueued more and refuses the next with 503', async () => {
    const bench = await openBenchDatabase(database.url);
    const project = (await findProject(bench.db, { column: 'slug', value: 'the-computer' })) as Project;
    const renderer = perfRenderer(bench, {
      url: database.url,
      dialect: 'sqlite',
      threads: 1,
      logLevel: 'silent',
      maxQueued: 1,
    });
    try {
      const query = parsed(Object.fromEntries(new URL(path, 'http://x').searchParams) as unknown as PerfQuerystring);
      const asked = Array.from({ length: JOBS_PER_THREAD + 2 }, () => renderer.render(project, query, 'json'));
      const answers = await Promise.allSettled(asked);
      expect(answers.map((answer) => answer.status)).toEqual([
        ...Array.from({ length: JOBS_PER_THREAD + 1 }, () => 'fulfilled'),
        'rejected',
      ]);
      expect((answers.at(-1) as PromiseRejectedResult).reason).toMatchObject({
        status: 503,
        code: 'busy',
        headers: { 'retry-after': '1' },
      });
    } finally {
      await renderer.close();
      await bench.close();
    }
  });

  it('fails the queries of a thread that cannot open its database, without hanging', async () => {
    const bench = await openBenchDatabase(database.url);
    const renderer = perfRenderer(bench, {
      url: `${database.url}-missing`,
      dialect: 'sqlite',
      threads: 1,
      logLevel: 'silent',
    });
    const project = { uuid: 'none' } as Project;
    try {
      const failed = /^the perf worker thread failed: .*SQLITE_CANTOPEN/;
      await expect(renderer.render(project, {} as never, 'json')).rejects.toThrow(failed);
      await expect(renderer.render(project, {} as never, 'json')).rejects.toThrow(failed);
    } finally {
      await renderer.close();
      await bench.close();
    }
  });
});

describe.skipIf(!(await postgresAvailable()))('perf queries in worker threads (PostgreSQL)', () => {
  it('answer 503 database_unavailable in the service shape when PostgreSQL cannot be reached', async () => {
    const database = await createTestDatabase('sqlite');
    const bench = await openBenchDatabase(database.url);
    const renderer = perfRenderer(bench, {
      url: 'postgres://postgres@127.0.0.1:1/postgres',
      dialect: 'postgres',
      threads: 1,
      logLevel: 'silent',
    });
    try {
      const none = '00000000-0000-4000-8000-000000000000';
      const query = parsed({ branches: none, heads: undefined, testbeds: none, benchmarks: none, measures: none });
      await expect(renderer.render({ uuid: 'none' } as Project, query, 'json')).rejects.toMatchObject({
        status: 503,
        code: 'database_unavailable',
        headers: { 'retry-after': '5' },
      });
    } finally {
      await renderer.close();
      await bench.close();
      await database.drop();
    }
  });
});
