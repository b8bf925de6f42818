import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Target {
  url: string;
  stop(): void;
}

/**
 * Starts `bench/targets/<script>.ts` in its own Node process (so the load generator does not share its
 * event loop) and waits for the `PORT <n>` line it writes to stderr. Its stdout (logs) goes to /dev/null.
 */
export function spawnTarget(script: string, args: string[], path = '/'): Promise<Target> {
  const file = fileURLToPath(new URL(`../targets/${script}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const port = /PORT (\d+)/.exec(stderr)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}${path}`, stop: () => child.kill('SIGKILL') });
    });
    child.on('exit', (code) => reject(new Error(`${script} ${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
}
