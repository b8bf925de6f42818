// Real `atrium serve --services <one>` child processes from the built dist, each on a free port with its own
// temporary data directory, on the embedded SQLite default or a fresh PostgreSQL schema.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export type Service = 'inference' | 'provenance' | 'bench';
export type Dialect = 'sqlite' | 'postgres';

export const PG_URL = process.env.ATRIUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ATRIUM = fileURLToPath(new URL('../../packages/cli/bin/atrium.mjs', import.meta.url));
const UPPER: Record<Service, string> = { inference: 'INFERENCE', provenance: 'PROVENANCE', bench: 'BENCH' };

export interface Running {
  service: Service;
  pid: number;
  dialect: Dialect;
  origin: string;
  database: string;
  dataDir: string;
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** The banner and start-up lines (the documented one-time demo password lives here). */
  startup: string;
  /** Everything written to stdout and stderr after start-up. */
  logs(): string;
  /** The exit code or signal if the process has ended, else undefined. */
  exit(): string | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** TOML written to the config file. */
  config?: string;
  env?: Record<string, string>;
  /** Runs `atrium` commands against the data directory before the server starts. */
  before?: (cli: (args: string[]) => Promise<string>) => Promise<void>;
}

/** Runs `atrium …args` to completion and returns its stdout. */
export function atrium(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ATRIUM, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`atrium ${args[0]}: ${code} ${err}`))));
  });
}

/** A fresh schema in the test PostgreSQL server: its URL, and how to drop it. */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `serve_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  };
  return { url, drop };
}

const children = new Set<ChildProcess>();
// A runner that fails or is interrupted must not leave services behind (a stalled one keeps a core busy).
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export async function startService(service: Service, dialect: Dialect, options: StartOptions = {}): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), `atrium-serve-${service}-`));
  const configFile = join(dataDir, 'atrium.toml');
  writeFileSync(configFile, options.config ?? '');
  const schema = dialect === 'postgres' ? await postgresSchema() : undefined;
  const database = schema?.url ?? `sqlite:${join(dataDir, `${service}.db`)}`;
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith('ATRIUM_'));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    [`ATRIUM_${UPPER[service]}_PORT`]: '0',
    [`ATRIUM_${UPPER[service]}_DATABASE`]: database,
    ATRIUM_LOG_LEVEL: 'info',
    ...options.env,
  };
  const common = ['--config', configFile, '--data-dir', dataDir];
  await options.before?.((args) => atrium([...args, ...common], env));
  // e.g. ATRIUM_SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the service under the benchmark's load.
  const nodeArgs = process.env.ATRIUM_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, ATRIUM, 'serve', '--services', service, ...common],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  let exit: string | undefined;
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const closed = new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      exit = signal ?? String(code);
      children.delete(child);
      resolve();
    }),
  );
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${service} (${dialect}): no banner in 180 s: ${output}`)),
      180_000,
    );
    const onData = () => {
      const url = new RegExp(`^ {2}${service}\\s+(http://[\\d.:]+)`, 'm').exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', onData);
    void closed.then(() => reject(new Error(`${service} (${dialect}) exited with ${exit}: ${output}`)));
  });
  // Later start-up lines ("Server listening") arrive right after the banner.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const startup = output;
  return {
    service,
    pid: child.pid as number,
    dialect,
    origin,
    database,
    dataDir,
    configFile,
    env,
    startup,
    logs: () => output.slice(startup.length),
    exit: () => exit,
    stop: async () => {
      if (exit === undefined) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(killer);
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
