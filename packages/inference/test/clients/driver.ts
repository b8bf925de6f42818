import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { MODEL } from './gateway.js';
import { clientEnv, runClient } from './run.js';
import type { ClientSuite } from './suite.js';

/** One call a driver makes: `case` with `key`, reported under `name`. */
export interface DriverRun {
  name: string;
  case: string;
  key: string;
}

/** What a driver reports per run: the case's result, or the message of what it threw; and how long it took. */
export interface Outcome {
  result?: Record<string, unknown>;
  error?: string;
  ms: number;
}

/** The result of a run that should have succeeded; its error, if it threw, fails the test readably. */
export function resultOf(outcomes: Record<string, Outcome>, name: string): Record<string, unknown> {
  const outcome = outcomes[name];
  expect(outcome?.error, name).toBeUndefined();
  return outcome?.result ?? {};
}

/**
 * Runs `sdk.driver.ts` under Node ≥ 22 (type stripping) with the SDKs installed in `sdk.dir`, against the suite's
 * gateway as a fresh user: every run of the job in order, in one process; returns the outcome of each by name.
 */
export async function runDriver(
  suite: ClientSuite,
  sdk: { node: string; dir: string },
  job: { sdk: 'ai-sdk' | 'langchain'; provider?: string; runs: DriverRun[] },
): Promise<Record<string, Outcome>> {
  const home = suite.freshHome();
  const { notes, image } = suite.work;
  const payload = JSON.stringify({ base: suite.gateway.base, model: MODEL, notes, image, ...job });
  const file = fileURLToPath(new URL('./sdk.driver.ts', import.meta.url));
  const run = await runClient(sdk.node, ['--no-warnings', file, sdk.dir, payload], {
    cwd: home,
    timeoutMs: 60_000,
    // Node's fetch takes the proxy variables only when asked to.
    env: clientEnv(home, { ...suite.trap.env, NODE_USE_ENV_PROXY: '1' }),
  });
  if (run.code !== 0) throw new Error(`the ${job.sdk} driver exited with ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, Outcome>;
}
