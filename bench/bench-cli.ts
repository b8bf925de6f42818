// `atrium bench run` overhead: wall time of the CLI around a no-op command with a --file of 500 benchmarks,
// against the API call alone (the same POST /v0/run from this process), the CLI module entered directly
// (what `atrium bench` costs once main.ts loads its commands lazily) and a bare `node` start. Interleaved
// rounds, medians; the server runs in this process on a fresh SQLite file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConfigSchema, buildBenchApp, createUser, mintJwt, openBenchDatabase } from '@atrium/bench';
import { createLogger } from '@atrium/core';
import { median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

const BENCHMARKS = 500;
const ATRIUM = fileURLToPath(new URL('../packages/cli/bin/atrium.mjs', import.meta.url));
const ENTRY = new URL('../packages/cli/dist/commands/bench/index.js', import.meta.url).href;
const SECRET = 'DO_NOT_USE_THIS_IN_PRODUCTION';

function bmf(round: number): string {
  const results: Record<string, { latency: { value: number } }> = {};
  for (let i = 0; i < BENCHMARKS; i++) results[`bench::case_${i}`] = { latency: { value: 1000 + i + (round % 7) } };
  return JSON.stringify(results);
}

/** Wall time of `node …argv` (asynchronous: the server answering it lives in this process). */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`${argv.join(' ')} failed: ${stderr}`));
    });
  });
}

export default async function benchCli(args: string[]): Promise<BenchReport> {
  const rounds = Number(args[0] ?? 7);
  const dir = mkdtempSync(join(tmpdir(), 'atrium-bench-cli-'));
  const database = `sqlite:${join(dir, 'bench.db')}`;
  const seed = await openBenchDatabase(database);
  await createUser(seed.db, { name: 'Muriel Bagge', slug: 'muriel-bagge', email: 'muriel.bagge@nowhere.com' });
  await seed.close();
  const config = benchConfigSchema.parse({ port: 0, database, security: { secretKey: SECRET } });
  const app = await buildBenchApp(config, {
    logger: createLogger({ level: 'silent' }),
    dataDir: dir,
    accessLog: false,
  });
  const now = Math.floor(Date.now() / 1000);
  const token = mintJwt(
    { aud: 'api_key', exp: now + 3600, iat: now, iss: 'http://localhost:3000/', sub: 'muriel.bagge@nowhere.com' },
    SECRET,
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const host = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ATRIUM_BENCH_HOST: host, ATRIUM_BENCH_KEY: token, CI: undefined };
  const file = join(dir, 'results.json');
  const runArgs = ['run', '--project', 'cli-bench', '--branch', 'main', '--testbed', 'bench', '--adapter', 'json'];
  const cliArgs = [...runArgs, '--quiet', '--format', 'json', '--file', file, '--exec', 'true'];
  const times = { cli: [] as number[], entry: [] as number[], api: [] as number[], node: [] as number[] };
  try {
    writeFileSync(file, bmf(0));
    await timed([ATRIUM, 'bench', ...cliArgs], env); // creates the project, branch, testbed and 500 benchmarks
    for (let round = 1; round <= rounds; round++) {
      writeFileSync(file, bmf(round));
      times.cli.push(await timed([ATRIUM, 'bench', ...cliArgs], env));
      const script = `import(${JSON.stringify(ENTRY)}).then((m) => m.bench(${JSON.stringify(cliArgs)}))`;
      times.entry.push(await timed(['--input-type=module', '-e', script], env));
      const body = JSON.stringify({
        project: 'cli-bench',
        branch: 'main',
        testbed: 'bench',
        start_time: new Date().toISOString(),
        end_time: new Date().toISOString(),
        results: [bmf(round)],
        settings: { adapter: 'json' },
      });
      const started = performance.now();
      const response = await fetch(`${host}/v0/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      await response.text();
      if (response.status !== 201) throw new Error(`POST /v0/run: ${response.status}`);
      times.api.push(performance.now() - started);
      times.node.push(await timed(['-e', '0'], env));
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const api = median(times.api);
  const row = (variant: string, values: number[]) => ({
    variant,
    'median ms': Math.round(median(values)),
    'min ms': Math.round(Math.min(...values)),
    'overhead vs API ms': Math.round(median(values) - api),
  });
  const rows = [
    row('atrium bench run (bin/atrium.mjs)', times.cli),
    row('bench client module entered directly', times.entry),
    row(`POST /v0/run alone (${BENCHMARKS} benchmarks)`, times.api),
    row('node -e 0 (process start)', times.node),
  ];
  const direct = median(times.entry) - api;
  return {
    title: `atrium bench run --file (${BENCHMARKS} benchmarks) around a no-op command, ${rounds} interleaved rounds`,
    columns: ['variant', 'median ms', 'min ms', 'overhead vs API ms'],
    rows,
    notes: [
      `Goal: CLI start + parse + submit < 300 ms over the API call. Through bin/atrium.mjs: ${Math.round(median(times.cli) - api)} ms; entered directly: ${Math.round(direct)} ms.`,
      'Any gap between the two first rows is what main.ts loads before dispatching (it imports commands lazily).',
    ],
    data: times,
  };
}
