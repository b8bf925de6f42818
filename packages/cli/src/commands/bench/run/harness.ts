import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { RunPlan } from './options.js';

export interface Echo {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
}

interface Exit {
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
}

/** Runs argv, capturing stdout (the result) and echoing both streams as they come. */
export function runOnce(argv: readonly string[], echo: Echo | undefined): Promise<Exit> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['inherit', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      echo?.stdout(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => echo?.stderr(chunk));
    child.on('error', (error) => reject(new Error(`cannot run '${argv[0]}': ${error.message}`)));
    child.on('close', (code, signal) =>
      resolve({
        stdout: Buffer.concat(chunks).toString('utf8'),
        code,
        signal,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      }),
    );
  });
}

type Bmf = Record<string, Record<string, { value: number }>>;

/** `--build-time` and `--file-size`: the measurements as Bencher Metric Format instead of parsed output. */
async function measuredResult(plan: RunPlan, seconds: number | undefined): Promise<string> {
  const bmf: Bmf = {};
  if (plan.buildTime && seconds !== undefined && plan.commandText !== undefined) {
    bmf[plan.commandText] = { 'build-time': { value: Math.round(seconds * 100) / 100 } };
  }
  for (const path of plan.fileSizes) {
    const size = (await stat(path)).size;
    bmf[basename(path)] = { ...bmf[basename(path)], 'file-size': { value: size } };
  }
  return JSON.stringify(bmf);
}

/**
 * One iteration: run the command (if any), then its result(s): the measurements of `--build-time` /
 * `--file-size`, else each `--file`, else the command's stdout. An empty list means a failure
 * skipped under `--allow-failure`.
 */
export async function iteration(plan: RunPlan, echo: Echo | undefined, warn: (m: string) => void): Promise<string[]> {
  let exit: Exit | undefined;
  if (plan.command) {
    exit = await runOnce(plan.command, echo);
    if (exit.code !== 0) {
      const why = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
      const message = `the benchmark command failed with ${why}: ${plan.commandText}`;
      if (!plan.allowFailure) throw new Error(message);
      warn(`warning: ${message} (skipped, --allow-failure)`);
      return [];
    }
  }
  if (plan.buildTime || plan.fileSizes.length > 0) return [await measuredResult(plan, exit?.seconds)];
  if (plan.files.length > 0) return Promise.all(plan.files.map((file) => readFile(file, 'utf8')));
  return [exit?.stdout ?? ''];
}

/** Piped standard input, or undefined when stdin is a terminal. */
export async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
