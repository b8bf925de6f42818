import type { RunContext } from './context.js';
import type { RunPlan } from './options.js';

/** The `JsonNewRun` body of `POST /v0/run`. */
export interface NewRun {
  project?: string;
  branch: string;
  hash?: string;
  testbed: string;
  start_point?: NonNullable<RunPlan['startPoint']>;
  thresholds?: NonNullable<RunPlan['thresholds']>;
  start_time: string;
  end_time: string;
  results: string[];
  settings: RunPlan['settings'];
  context: RunContext;
  idempotency_key: string;
}

const KEY = 'bencher.dev/v0/';

/**
 * Branch: option, environment, current git branch, `main`. Hash: option, git HEAD. Testbed: option,
 * environment, OS name. The server applies the same defaults; filling them here makes `--dry-run` exact.
 */
export function newRun(
  plan: RunPlan,
  run: { results: string[]; start: Date; end: Date; context: RunContext; idempotencyKey: string },
): NewRun {
  const { context } = run;
  const elapsed = run.end.getTime() - run.start.getTime();
  const start = plan.backdate ?? run.start;
  const hash = plan.hash ?? context[`${KEY}branch/hash`];
  return {
    ...(plan.project ? { project: plan.project } : {}),
    branch: plan.branch ?? context[`${KEY}branch/ref/name`] ?? 'main',
    ...(hash ? { hash } : {}),
    testbed: plan.testbed ?? context[`${KEY}testbed/os`] ?? 'localhost',
    ...(plan.startPoint ? { start_point: plan.startPoint } : {}),
    ...(plan.thresholds ? { thresholds: plan.thresholds } : {}),
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + elapsed).toISOString(),
    results: run.results,
    settings: plan.settings,
    context,
    idempotency_key: run.idempotencyKey,
  };
}
