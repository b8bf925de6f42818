import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../usage.js';
import { parseCommandLine, Values } from './args.js';
import type { Io } from './io.js';

/** `atrium bench up|down|logs`: a self-hosted bench server as a detached local process. */

const ATRIUM_BIN = fileURLToPath(new URL('../../../bin/atrium.mjs', import.meta.url));
const SERVICES = ['all', 'api', 'console'] as const;
const BANNER = /^ {2}bench\s+(http:\/\/\S+?)\/v0\//m;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `--mode` and `--image`/`--pull` choose and configure container mode (docker-server.ts). */
export const COMMON = { dir: { type: 'string' }, mode: { type: 'string' } } as const;
export const UP_USAGE =
  'atrium bench up [api|console] [--api-port P] [--console-port P] [--api-env K=V]… [--api-volume HOST:/data] [--detach]';
export const DOWN_USAGE = 'atrium bench down|logs [api|console]';

export const UP_OPTIONS = {
  ...COMMON,
  image: { type: 'string' },
  pull: { type: 'string' },
  detach: { type: 'boolean', short: 'd' },
  'api-port': { type: 'string' },
  'console-port': { type: 'string' },
  'api-env': { type: 'string', multiple: true },
  'console-env': { type: 'string', multiple: true },
  'api-volume': { type: 'string', multiple: true },
  'console-volume': { type: 'string', multiple: true },
} as const;

interface Paths {
  dir: string;
  pid: string;
  log: string;
  url: string;
}

function pathsOf(values: Values): Paths {
  const dir = resolve(values.string('dir', 'ATRIUM_BENCH_HOME') ?? join(homedir(), '.atrium', 'bench-server'));
  return { dir, pid: join(dir, 'api.pid'), log: join(dir, 'api.log'), url: join(dir, 'api.url') };
}

export function serviceOf(positionals: string[]): (typeof SERVICES)[number] {
  if (positionals.length > 1) throw new UsageError('expected at most one service: all, api or console');
  const service = positionals[0] ?? 'all';
  if (!(SERVICES as readonly string[]).includes(service)) {
    throw new UsageError(`unknown service '${service}' (expected all, api or console)`);
  }
  return service as (typeof SERVICES)[number];
}

/** Whether a process with this id exists (signal 0 only checks). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function runningPid(paths: Paths): number | undefined {
  if (!existsSync(paths.pid)) return undefined;
  const pid = Number(readFileSync(paths.pid, 'utf8'));
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
}

/** `KEY=VALUE` pairs of `--api-env`. */
export function envPairs(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals <= 0) throw new UsageError(`--api-env takes KEY=VALUE, got '${pair}'`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
}

/** The host side of `--api-volume HOST[:CONTAINER]`: the server's data directory. */
export const volumeHost = (volume: string) => volume.split(':')[0] as string;

/** The client's variables; `ATRIUM_BENCH_HOST` would otherwise be read by the server as its bind address. */
const CLIENT_VARIABLES = new Set(
  ['HOST', 'KEY', 'PROJECT', 'BRANCH', 'TESTBED', 'ADAPTER', 'IMAGE', 'UP_MODE'].map((v) => `ATRIUM_BENCH_${v}`),
);

/** The child's environment: ours without the client's `ATRIUM_BENCH_*` variables, plus the server's. */
function serverEnv(env: NodeJS.ProcessEnv, port: number, consolePort: number, extra: Record<string, string>) {
  const inherited = Object.entries(env).filter(([key]) => !CLIENT_VARIABLES.has(key));
  return {
    ...Object.fromEntries(inherited),
    ATRIUM_BENCH_PORT: String(port),
    ATRIUM_BENCH_CONSOLE_URL: `http://localhost:${consolePort}`,
    ...extra,
  };
}

async function up(args: readonly string[], io: Io): Promise<void> {
  const line = parseCommandLine(args, UP_OPTIONS, { usage: UP_USAGE, warn: io.warn });
  const values = new Values(line, io.env);
  const service = serviceOf(line.positionals);
  if (service === 'console') {
    io.warn('warning: Atrium has no separate bench console; nothing to start (links use --console-port)');
    return;
  }
  const paths = pathsOf(values);
  const already = runningPid(paths);
  if (already)
    throw new Error(`the bench server is already running (pid ${already}); stop it with 'atrium bench down'`);
  const port = values.number('api-port', { integer: true, min: 0, max: 65535 }) ?? 6610;
  const consolePort = values.number('console-port', { integer: true, min: 1, max: 65535 }) ?? 3000;
  const volumes = values.list('api-volume');
  const dataDir = resolve(volumes.length > 0 ? volumeHost(volumes.at(-1) as string) : join(paths.dir, 'data'));
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(paths.dir, { recursive: true });
  rmSync(paths.url, { force: true });
  const log = openSync(paths.log, 'a');
  const start = statSync(paths.log).size;
  const child = spawn(process.execPath, [ATRIUM_BIN, 'serve', '--services', 'bench', '--data-dir', dataDir], {
    detached: true,
    stdio: ['ignore', log, log],
    env: serverEnv(io.env, port, consolePort, envPairs(values.list('api-env'))),
  });
  closeSync(log);
  child.unref();
  const pid = child.pid as number;
  writeFileSync(paths.pid, `${pid}\n`);
  const url = await awaitBanner(paths.log, start, pid);
  writeFileSync(paths.url, `${url}\n`);
  io.out(`bench API ${url} (pid ${pid}, data ${dataDir}, log ${paths.log})\n`);
}

/** Waits for `atrium serve`'s banner in the log (the URL, also for port 0). */
async function awaitBanner(logFile: string, from: number, pid: number): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const text = readFileSync(logFile, 'utf8').slice(from);
    const match = BANNER.exec(text);
    if (match) return match[1] as string;
    if (!alive(pid))
      throw new Error(`the bench server exited during start-up: ${text.trim().split('\n').at(-1) ?? ''}`);
    await sleep(100);
  }
  throw new Error(`the bench server did not start within 60 s; see ${logFile}`);
}

async function down(args: readonly string[], io: Io): Promise<void> {
  const line = parseCommandLine(args, COMMON, { usage: DOWN_USAGE, warn: io.warn });
  serviceOf(line.positionals);
  const paths = pathsOf(new Values(line, io.env));
  const pid = runningPid(paths);
  if (!pid) {
    rmSync(paths.pid, { force: true });
    io.out('the bench server is not running\n');
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(paths.pid, { force: true });
  rmSync(paths.url, { force: true });
  io.out(`stopped the bench server (pid ${pid})\n`);
}

/** Prints the log, then follows it while the server runs. */
async function logs(args: readonly string[], io: Io): Promise<void> {
  const line = parseCommandLine(args, COMMON, { usage: DOWN_USAGE, warn: io.warn });
  serviceOf(line.positionals);
  const paths = pathsOf(new Values(line, io.env));
  if (!existsSync(paths.log)) throw new Error(`no log at ${paths.log}; start the server with 'atrium bench up'`);
  let offset = 0;
  const drain = () => {
    const size = statSync(paths.log).size;
    if (size <= offset) return;
    const fd = openSync(paths.log, 'r');
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    closeSync(fd);
    offset = size;
    io.out(buffer.toString('utf8'));
  };
  drain();
  for (let pid = runningPid(paths); pid && alive(pid); ) {
    await sleep(200);
    drain();
  }
  drain();
}

export const LOCAL_SERVER = { up, down, logs } as const;
