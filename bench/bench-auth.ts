// Bench accounts: log-in + confirm round trip (POST /v0/auth/login, then POST /v0/auth/confirm with the emailed
// code, read from the outbox outside the timing), and the brute-force guard (10 per email, 100 per address per hour).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigSchema, buildBenchApp, createUserAccount, openBenchDatabase } from '@atrium/bench';
import { createLogger, latestOutbox } from '@atrium/core';
import { createTestDatabase } from '@atrium/core/testing/support';
import type { BenchReport } from './lib/report.js';

type Dialect = 'sqlite' | 'postgres';

async function startServer(dialect: Dialect, users: number, auth: Record<string, number>) {
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-auth-'));
  const seed = await openBenchDatabase(database.url);
  for (let i = 0; i < users; i++)
    await createUserAccount(seed.db, { name: `User ${i}`, email: `user${i}@bench.local` });
  const config = benchConfigSchema.parse({ port: 0, database: database.url, auth });
  const app = await buildBenchApp(config, { logger: createLogger({ level: 'silent' }), dataDir, accessLog: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    post,
    /** The code of the newest message to `email`, once the background log-in mail is stored. */
    async codeFor(email: string, after: number): Promise<string> {
      for (;;) {
        const message = (await latestOutbox(seed.db, 5)).find((m) => m.recipient === email && m.id > after);
        const code = message && /^Code: (\S+)$/m.exec(message.body)?.[1];
        if (code) return code;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    lastId: async () => (await latestOutbox(seed.db, 1))[0]?.id ?? 0,
    async close() {
      await app.close();
      await seed.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export default async function benchAuth(args: string[]): Promise<BenchReport> {
  const dialect = (args[0] ?? 'sqlite') as Dialect;
  const rounds = Number(args[1] ?? 500);
  const users = 50;
  const rows: Record<string, string | number>[] = [];

  const server = await startServer(dialect, users, {
    loginsPerMailboxPerAddressPerHour: 1_000_000,
    loginsPerAddressPerHour: 1_000_000,
  });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      const email = `user${i % users}@bench.local`;
      const after = await server.lastId();
      const loginStart = performance.now();
      const login = await server.post('/v0/auth/login', { email });
      await login.arrayBuffer();
      const loginMs = performance.now() - loginStart;
      const code = await server.codeFor(email, after);
      const confirmStart = performance.now();
      const confirm = await server.post('/v0/auth/confirm', { token: code });
      await confirm.arrayBuffer();
      times.push(loginMs + performance.now() - confirmStart);
      if (login.status !== 202 || confirm.status !== 200) failures++;
    }
  } finally {
    await server.close();
  }
  times.sort((a, b) => a - b);
  rows.push({
    measurement: `log-in + confirm round trip (${rounds}, ${dialect})`,
    p50: `${percentile(times, 0.5).toFixed(2)} ms`,
    p99: `${percentile(times, 0.99).toFixed(2)} ms`,
    result: failures === 0 ? 'ok' : `${failures} failed`,
  });

  const guarded = await startServer(dialect, 1, {});
  try {
    const statuses = async (count: number, email: (i: number) => string) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await guarded.post('/v0/auth/login', { email: email(i) })).status);
      return seen;
    };
    const perEmail = await statuses(11, () => 'user0@bench.local');
    rows.push({
      measurement: 'guard: 11 log-ins for one email',
      p50: '',
      p99: '',
      result: `${perEmail.filter((s) => s === 202).length} x 202, then ${perEmail.at(-1)}`,
    });
    const perAddress = await statuses(89, (i) => `someone${i}@bench.local`);
    rows.push({
      measurement: 'guard: the 101st log-in from one address (every request counts, 429s too)',
      p50: '',
      p99: '',
      result: `${perAddress.filter((s) => s === 202).length} more x 202 (after the 11), then ${(await statuses(1, () => 'late@bench.local'))[0]}`,
    });
  } finally {
    await guarded.close();
  }
  return {
    title: `Bench accounts on ${dialect}: log-in + confirm latency (mail delivery excluded) and the brute-force guard`,
    columns: ['measurement', 'p50', 'p99', 'result'],
    rows,
    notes: [
      'goal: round trip p99 < 20 ms on SQLite; guard: 10 per mailbox from one address and 100 per client address per hour, then 429',
    ],
    data: { roundTripMs: times },
  };
}
