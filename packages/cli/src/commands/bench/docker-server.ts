import { mkdirSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../usage.js';
import { parseCommandLine, Values } from './args.js';
import { type ContainerSpec, DockerEngine, describeAddress, engineAddress } from './docker-engine.js';
import type { Io } from './io.js';
import { COMMON, DOWN_USAGE, envPairs, LOCAL_SERVER, serviceOf, UP_OPTIONS, UP_USAGE } from './local-server.js';

/**
 * `atrium bench up|down|logs`: the self-hosted bench server as a container of the Atrium image when a Docker
 * engine answers (`DOCKER_HOST`, else /var/run/docker.sock), else as a local process (`--mode` forces one).
 */

export const CONTAINER_NAME = 'atrium-bench-api';
export const SERVICE_LABEL = 'dev.atrium.bench.service';
const CONTAINER_PORT = 6610;
const DEFAULT_IMAGE = 'atrium:latest';
const DEFAULT_VOLUME = 'atrium-bench-data';
const DATA_DIR = '/data';
const MODES = ['auto', 'container', 'process'] as const;
const PULL = ['always', 'missing', 'never'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got '${value}'`);
  }
  return value as T;
}

/** The engine to use, or undefined for process mode; `announce` prints the choice and why. */
async function chooseEngine(values: Values, io: Io, announce: boolean): Promise<DockerEngine | undefined> {
  const mode = oneOf('--mode', values.string('mode', 'ATRIUM_BENCH_UP_MODE') ?? 'auto', MODES);
  if (mode === 'process') {
    if (announce) io.out('process mode (--mode process)\n');
    return undefined;
  }
  let why: string;
  try {
    const address = engineAddress(io.env.DOCKER_HOST);
    const engine = new DockerEngine(address);
    const probe = await engine.probe();
    if ('version' in probe) {
      if (announce) io.out(`container mode (Docker engine ${probe.version} at ${describeAddress(address)})\n`);
      return engine;
    }
    why = `no Docker engine answers at ${describeAddress(address)} (${probe.error})`;
  } catch (error) {
    why = (error as Error).message; // a DOCKER_HOST this client cannot speak to
  }
  if (mode === 'container') throw new Error(`--mode container: ${why}`);
  if (announce) io.out(`process mode (${why})\n`);
  return undefined;
}

interface Mount {
  bind: string;
  target: string;
  hostPath?: string;
}

/** `--api-volume SOURCE[:TARGET[:MODE]]`: a host path (absolute or starting with `.`) or a named volume. */
export function mountOf(volume: string): Mount {
  const [source = '', target = DATA_DIR, ...rest] = volume.split(':');
  if (source === '' || !target.startsWith('/')) {
    throw new UsageError(`--api-volume takes SOURCE[:/container/path[:ro]], got '${volume}'`);
  }
  const hostPath = isAbsolute(source) || source.startsWith('.') ? resolve(source) : undefined;
  return { bind: [hostPath ?? source, target, ...rest].join(':'), target, hostPath };
}

/** What `up` asks the engine to run: the bench service alone, its data in the last volume. */
export function containerSpec(values: Values, uid = process.getuid?.()): ContainerSpec {
  const port = values.number('api-port', { integer: true, min: 0, max: 65535 }) ?? 6610;
  const consolePort = values.number('console-port', { integer: true, min: 1, max: 65535 }) ?? 3000;
  const volumes = values.list('api-volume');
  const mounts = (volumes.length > 0 ? volumes : [`${DEFAULT_VOLUME}:${DATA_DIR}`]).map(mountOf);
  // Files in a host directory belong to the caller; named volumes keep the image's own user.
  const hostPaths = mounts.flatMap((m) => (m.hostPath ? [m.hostPath] : []));
  const user = hostPaths.length > 0 && uid !== undefined ? `${uid}:${process.getgid?.() ?? uid}` : undefined;
  return {
    name: CONTAINER_NAME,
    image: values.string('image', 'ATRIUM_BENCH_IMAGE') ?? DEFAULT_IMAGE,
    cmd: ['serve', '--services', 'bench'],
    env: {
      ATRIUM_DATA_DIR: (mounts.at(-1) as Mount).target,
      ATRIUM_BENCH_CONSOLE_URL: `http://localhost:${consolePort}`,
      ...envPairs(values.list('api-env')),
    },
    labels: { [SERVICE_LABEL]: 'api' },
    ports: { [CONTAINER_PORT]: port },
    binds: mounts.map((m) => m.bind),
    ...(user ? { user } : {}),
  };
}

/** `--pull`: always pulls, `missing` (default) only when the engine lacks the image, `never` never does. */
async function ensureImage(engine: DockerEngine, image: string, pull: (typeof PULL)[number], io: Io) {
  if (pull === 'missing' && (await engine.hasImage(image))) return;
  if (pull === 'never') {
    if (await engine.hasImage(image)) return;
    throw new Error(
      `the Docker engine has no image '${image}' (--pull never); build it with 'docker build -t ${image} .'`,
    );
  }
  io.out(`pulling ${image}\n`);
  try {
    await engine.pull(image);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; build the image with 'docker build -t ${image} .' or use --mode process`,
    );
  }
}

/** Waits until the bench API answers through the published port; fails with the log's end if the container stops. */
async function awaitApi(engine: DockerEngine, name: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const state = await engine.inspect(name);
    if (!state?.running) {
      let log = '';
      await engine.logs(name, false, (_stream, text) => {
        log += text.toString('utf8');
      });
      const last = log.trim().split('\n').at(-1) ?? '';
      throw new Error(`the bench container exited during start-up (${state?.status ?? 'removed'}): ${last}`);
    }
    const port = state.hostPorts[CONTAINER_PORT];
    if (port) {
      const url = `http://127.0.0.1:${port}`;
      // A timer that holds the process open: AbortSignal.timeout's does not, and a probe that hangs would let it exit.
      const probe = new AbortController();
      const timer = setTimeout(() => probe.abort(), 2000);
      const ok = await fetch(`${url}/v0/server/version`, { signal: probe.signal })
        .then(
          (r) => r.ok,
          () => false,
        )
        .finally(() => clearTimeout(timer));
      if (ok) return url;
    }
    await sleep(250);
  }
  throw new Error(`the bench container did not answer within 60 s; see 'atrium bench logs'`);
}

async function up(args: readonly string[], io: Io): Promise<void> {
  const line = parseCommandLine(args, UP_OPTIONS, { usage: UP_USAGE, warn: io.warn });
  const values = new Values(line, io.env);
  if (serviceOf(line.positionals) === 'console') return LOCAL_SERVER.up(args, io);
  const pull = oneOf('--pull', values.string('pull') ?? 'missing', PULL);
  const spec = containerSpec(values);
  const engine = await chooseEngine(values, io, true);
  if (!engine) return LOCAL_SERVER.up(args, io);
  const existing = await engine.inspect(spec.name);
  if (existing?.running) {
    throw new Error(`the bench server is already running (container ${spec.name}); stop it with 'atrium bench down'`);
  }
  if (existing) await engine.remove(spec.name);
  await ensureImage(engine, spec.image, pull, io);
  for (const volume of values.list('api-volume')) {
    const { hostPath } = mountOf(volume);
    if (hostPath) mkdirSync(hostPath, { recursive: true });
  }
  await engine.start(await engine.create(spec));
  const url = await awaitApi(engine, spec.name);
  io.out(`bench API ${url} (container ${spec.name}, image ${spec.image}, data ${spec.binds.at(-1)})\n`);
}

/** The engine when one answers and runs our container, else undefined (process mode). */
async function engineWithContainer(args: readonly string[], io: Io): Promise<DockerEngine | undefined> {
  const line = parseCommandLine(args, COMMON, { usage: DOWN_USAGE, warn: io.warn });
  serviceOf(line.positionals);
  const engine = await chooseEngine(new Values(line, io.env), io, false);
  return engine && (await engine.inspect(CONTAINER_NAME)) ? engine : undefined;
}

async function down(args: readonly string[], io: Io): Promise<void> {
  const engine = await engineWithContainer(args, io);
  if (!engine) return LOCAL_SERVER.down(args, io);
  await engine.stop(CONTAINER_NAME);
  await engine.remove(CONTAINER_NAME);
  io.out(`stopped and removed the bench container ${CONTAINER_NAME}\n`);
}

/** Prints the container's log and follows it until the container stops. */
async function logs(args: readonly string[], io: Io): Promise<void> {
  const engine = await engineWithContainer(args, io);
  if (!engine) return LOCAL_SERVER.logs(args, io);
  await engine.logs(CONTAINER_NAME, true, (_stream, text) => io.out(text.toString('utf8')));
}

export const SELF_HOSTED = { up, down, logs } as const;
