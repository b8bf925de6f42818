import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { type ClientGateway, MODEL } from './gateway.js';
import { clientEnv, runClient } from './run.js';

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
 * Runs `sdk.driver.ts` under Node ≥ 22 (type stripping) with the SDKs installed in `sdkDir`: every run of the job
 * in order, in one process, and returns the outcome of each by name.
 */
export async function runDriver(
  tools: { node: string; sdkDir: string; home: string; proxyEnv: Record<string, string> },
  gateway: ClientGateway,
  job: { sdk: 'ai-sdk' | 'langchain'; provider?: string; notes: string; image: string; runs: DriverRun[] },
): Promise<Record<string, Outcome>> {
  const file = fileURLToPath(new URL('./sdk.driver.ts', import.meta.url));
  const run = await runClient(
    tools.node,
    ['--no-warnings', file, tools.sdkDir, JSON.stringify({ base: gateway.base, model: MODEL, ...job })],
    {
      cwd: tools.home,
      timeoutMs: 60_000,
      // Node's fetch takes the proxy variables only when asked to.
      env: clientEnv(tools.home, { ...tools.proxyEnv, NODE_USE_ENV_PROXY: '1' }),
    },
  );
  if (run.code !== 0) throw new Error(`the ${job.sdk} driver exited with ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, Outcome>;
}
