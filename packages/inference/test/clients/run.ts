import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ClientRun {
  /** The exit code, or `null` when the run was killed at its deadline. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
  /** When it exited (`performance.now()`). */
  ended: number;
}

/**
 * The environment of every client run: nothing of the developer's (no API keys, no proxies, no config), a
 * throw-away HOME, and no terminal.
 */
export function clientEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    ...extra,
  };
}

/** Runs a client to its exit (its whole process group is killed at `timeoutMs`), stdin closed. */
export function runClient(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ClientRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      const ended = performance.now();
      resolve({ code, stdout, stderr, ms: ended - started, ended });
    });
  });
}

/** A fresh directory for one test's client state (HOME, working directory); removed by the returned function. */
export function scratchDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `atrium-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
