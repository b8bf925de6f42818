import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ATRIUM_BIN = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));

/** Environment for a child `atrium`: no inherited ATRIUM_* settings, ephemeral ports, quiet logs; `extra` wins. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith('ATRIUM_'));
  const atrium = {
    ATRIUM_INFERENCE_PORT: '0',
    ATRIUM_PROVENANCE_PORT: '0',
    ATRIUM_BENCH_PORT: '0',
    ATRIUM_LOG_LEVEL: 'warn',
    ...extra,
  };
  // An `undefined` in `extra` removes the variable, also when it is inherited.
  const merged: Record<string, string | undefined> = { ...Object.fromEntries(inherited), ...atrium };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `atrium …` to completion. */
export function runCli(args: string[], env = cliEnv()): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ATRIUM_BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  child: ChildProcessWithoutNullStreams;
  /** service name -> URL printed in the banner */
  urls: Map<string, string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `atrium serve …` and resolves once its banner lists every expected service. */
export function startServe(args: string[], expected: string[], env = cliEnv()): Promise<Served> {
  const child = spawn(process.execPath, [ATRIUM_BIN, 'serve', ...args], { env });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const urls = new Map<string, string>();
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`banner not seen in time; stdout: ${stdout}\nstderr: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.on('data', (d) => {
      stdout += d;
      for (const match of stdout.matchAll(/^ {2}(\w+)\s+(http:\/\/\S+)/gm))
        urls.set(match[1] as string, match[2] as string);
      if (expected.every((name) => urls.has(name))) {
        clearTimeout(timer);
        resolve({ child, urls, stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`atrium serve exited with ${code}; stderr: ${stderr}`));
    });
  });
}

/** `atrium inference …` as an operator: its stdout, failing the test on anything written to stderr. */
export const inferenceOperator =
  (env: NodeJS.ProcessEnv) =>
  async (...args: string[]): Promise<string> => {
    const result = await runCli(['inference', ...args], env);
    expect(result.stderr).toBe('');
    return result.stdout;
  };

/** Creates `project` in organisation atrium with a grant to 2999 and 1,000 node-hours of cluster c1 converted to credits. */
export async function fundProject(operator: ReturnType<typeof inferenceOperator>, project: string): Promise<void> {
  await operator('create-project', '--name', project, '--organisation', 'atrium');
  await operator('add-grant', '--project', project, '--start', '2020-01-01', '--end', '2999-01-01');
  await operator('set-allocation', '--project', project, '--cluster', 'c1', '--node-hours', '1000');
  await operator('set-rate', '--cluster', 'c1', '--credits-per-node-hour', '1000', '--from', '2020-01-01');
  await operator('convert', '--project', project, '--cluster', 'c1', '--node-hours', '1000');
}
