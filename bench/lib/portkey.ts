// The Portkey gateway (https://github.com/Portkey-AI/gateway, the open-source TypeScript LLM gateway) as a peer
// in the inference benchmarks. It is installed from the npm registry into its own scratch directory, outside the
// workspace's dependencies, the first time a benchmark needs it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const VERSION = '1.15.2';
// With the version npm resolves today (1.19.x) every Portkey stream fails with `TypeError: immutable`.
const NODE_SERVER_VERSION = '1.13.5';
const DIR = fileURLToPath(new URL('../.scratch/portkey/', import.meta.url));

const installedVersion = (name: string): string | undefined => {
  const file = `${DIR}node_modules/${name}/package.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
};

/** Installs `@portkey-ai/gateway` into bench/.scratch/portkey unless the pinned versions are there already. */
export function installPortkey(): string {
  const server = `${DIR}node_modules/@portkey-ai/gateway/build/start-server.js`;
  if (
    installedVersion('@portkey-ai/gateway') === VERSION &&
    installedVersion('@hono/node-server') === NODE_SERVER_VERSION
  )
    return server;
  mkdirSync(DIR, { recursive: true });
  const manifest = {
    name: 'atrium-bench-portkey',
    private: true,
    description: 'The Portkey gateway as a peer in the inference benchmarks (installed by bench/lib/portkey.ts).',
    dependencies: { '@portkey-ai/gateway': VERSION },
    overrides: { '@hono/node-server': NODE_SERVER_VERSION },
  };
  writeFileSync(`${DIR}package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: DIR, stdio: 'inherit' });
  if (npm.status !== 0) throw new Error(`npm install @portkey-ai/gateway@${VERSION} in ${DIR} failed`);
  return server;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export interface Portkey {
  origin: string;
  pid: number;
  /** Headers that make Portkey forward an OpenAI-style request to `upstream` (an origin) with `key`. */
  headers(upstream: string, key: string): Record<string, string>;
  stop(): void;
}

/** Starts the Portkey gateway in its own Node process (headless: no console UI) on a free loopback port. */
export async function startPortkey(): Promise<Portkey> {
  const server = installPortkey();
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [server, `--port=${port}`, '--headless'], {
    cwd: DIR,
    // Its stderr is left out of the report: stream connections closed at the end of a timed run make it print
    // stack traces ("Response object has been garbage collected") that are about the load generator, not errors.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Portkey did not start in 60 s: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (!output.includes('Ready for connections')) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Portkey exited with ${code}: ${output}`)));
  });
  child.stderr?.resume();
  child.stdout?.resume();
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    headers: (upstream, key) => ({
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `${upstream}/v1`,
      authorization: `Bearer ${key}`,
    }),
    stop: () => child.kill(),
  };
}
