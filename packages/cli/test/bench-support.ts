import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigSchema, buildBenchApp, createUser, mintJwt, openBenchDatabase } from '@atrium/bench';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { ATRIUM_BIN, cliEnv, type Finished } from './run-cli.js';

const SECRET = 'DO_NOT_USE_THIS_IN_PRODUCTION';
const ISSUER = 'http://localhost:3000/';

export const tokenFor = (email: string) => {
  const now = Math.floor(Date.now() / 1000);
  return mintJwt({ aud: 'api_key', exp: now + 3600, iat: now, iss: ISSUER, sub: email }, SECRET);
};

export interface LiveBench {
  app: FastifyInstance;
  base: string;
  dir: string;
  /** Muriel's API token (a regular user). */
  muriel: string;
  close(): Promise<void>;
}

/** A real bench server on a fresh SQLite file, with user Muriel. */
export async function startLiveBench(): Promise<LiveBench> {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-cli-bench-'));
  const database = `sqlite:${join(dir, 'bench.db')}`;
  const seed = await openBenchDatabase(database);
  await createUser(seed.db, { name: 'Muriel Bagge', slug: 'muriel-bagge', email: 'muriel.bagge@nowhere.com' });
  await seed.close();
  const config = benchConfigSchema.parse({ port: 0, database, security: { secretKey: SECRET } });
  const app = await buildBenchApp(config, { logger: silentLogger, dataDir: dir, accessLog: false });
  const base = await listen(app);
  return { app, base, dir, muriel: tokenFor('muriel.bagge@nowhere.com'), close: () => app.close() };
}

/** Runs `atrium bench …` as a subprocess; stdin gets `input` and is then closed. */
export function atriumBench(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {},
): Promise<Finished> {
  return new Promise((resolve) => {
    const env = cliEnv({ CI: undefined, GITHUB_ACTIONS: undefined, ...options.env });
    const child = execFile(
      process.execPath,
      [ATRIUM_BIN, 'bench', ...args],
      { env, cwd: options.cwd },
      (_e, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** Parses stdout as JSON, failing with the CLI's stderr when the command did not succeed. */
// biome-ignore lint/suspicious/noExplicitAny: tests navigate JSON bodies without declaring every shape
export function json(result: Finished): any {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A command printing one BMF result: plain node (exec form), no CLI start-up. */
export const bmfCommand = (latency: number) => [
  '--exec',
  process.execPath,
  '-e',
  `console.log(JSON.stringify({"tests::fib":{latency:{value:${latency}}}}))`,
];

type CliOptions = { env?: Record<string, string | undefined>; input?: string };

/**
 * A live server for the enclosing `describe` (started in beforeAll, closed in afterAll), with `cli` running
 * `atrium bench` as Muriel against it and `run` submitting to the-computer/master/base as JSON.
 */
export function liveBenchSuite() {
  const suite = {
    bench: undefined as unknown as LiveBench,
    cli: (args: string[], extra: CliOptions = {}) =>
      atriumBench(args, {
        ...extra,
        env: { ATRIUM_BENCH_HOST: suite.bench.base, ATRIUM_BENCH_KEY: suite.bench.muriel, ...extra.env },
      }),
    target: ['--project', 'the-computer', '--branch', 'master', '--testbed', 'base'],
    run: (args: string[], extra: CliOptions = {}) =>
      suite.cli(['run', ...suite.target, '--format', 'json', '--quiet', ...args], extra),
  };
  beforeAll(async () => {
    suite.bench = await startLiveBench();
  });
  afterAll(() => suite.bench?.close());
  return suite;
}
