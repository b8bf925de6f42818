/** A threshold model: the statistical test and its parameters (Bencher's `Model`). */

/**
 * Bencher's seven tests, then `change_point`, an Atrium extension: the boundaries are the confidence that a
 * persistent change of level is real (see `change-point.ts`), upper alerting on increases, lower on decreases.
 */
export const MODEL_TESTS = [
  'static',
  'percentage',
  'z_score',
  't_test',
  'log_normal',
  'iqr',
  'delta_iqr',
  'change_point',
] as const;
export type ModelTest = (typeof MODEL_TESTS)[number];

export interface Model {
  test: ModelTest;
  min_sample_size: number | null;
  max_sample_size: number | null;
  window: number | null;
  lower_boundary: number | null;
  upper_boundary: number | null;
}

/** Tests whose boundaries are a confidence in [0.5, 1). */
/**
 * The longest regime a change_point threshold judges: the detector's drift guard is quadratic in it, and a regime
 * longer than a few hundred reports says nothing more about the newest few values.
 */
export const CHANGE_POINT_MAX_SAMPLES = 256;

const CONFIDENCE_TESTS: ReadonlySet<ModelTest> = new Set(['z_score', 't_test', 'log_normal', 'change_point']);

/** Input aliases accepted for `test`. */
export function parseModelTest(value: string): ModelTest | undefined {
  if (value === 'z') return 'z_score';
  if (value === 't') return 't_test';
  return (MODEL_TESTS as readonly string[]).includes(value) ? (value as ModelTest) : undefined;
}

function boundaryProblem(test: ModelTest, name: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return `${name} must be a finite number`;
  if (test === 'static') return undefined;
  if (CONFIDENCE_TESTS.has(test)) {
    return value >= 0.5 && value < 1 ? undefined : `${name} for ${test} must be in [0.5, 1)`;
  }
  return value >= 0 ? undefined : `${name} for ${test} must be ≥ 0`;
}

/** Why the model is invalid (a 400 message), or undefined when it is valid. */
export function modelProblem(model: Model): string | undefined {
  const { test, lower_boundary: lower, upper_boundary: upper } = model;
  if (lower === null && upper === null) return 'a threshold model needs a lower_boundary or an upper_boundary';
  for (const [name, value] of [
    ['lower_boundary', lower],
    ['upper_boundary', upper],
  ] as const) {
    const problem = value === null ? undefined : boundaryProblem(test, name, value);
    if (problem) return problem;
  }
  if (test === 'static') {
    if (model.min_sample_size !== null || model.max_sample_size !== null || model.window !== null) {
      return 'a static threshold takes no min_sample_size, max_sample_size or window';
    }
    if (lower !== null && upper !== null && lower > upper) return 'lower_boundary must not exceed upper_boundary';
    return undefined;
  }
  const minimum = test === 'percentage' ? 1 : 2;
  for (const [name, value] of [
    ['min_sample_size', model.min_sample_size],
    ['max_sample_size', model.max_sample_size],
  ] as const) {
    if (value !== null && (!Number.isInteger(value) || value < minimum || value > 0xffffffff)) {
      return `${name} for ${test} must be an integer ≥ ${minimum}`;
    }
  }
  if (test === 'change_point' && model.max_sample_size !== null && model.max_sample_size > CHANGE_POINT_MAX_SAMPLES) {
    return `max_sample_size for change_point must be at most ${CHANGE_POINT_MAX_SAMPLES}`;
  }
  if (
    model.min_sample_size !== null &&
    model.max_sample_size !== null &&
    model.min_sample_size > model.max_sample_size
  ) {
    return 'min_sample_size must not exceed max_sample_size';
  }
  if (model.window !== null && (!Number.isInteger(model.window) || model.window < 1 || model.window > 0xffffffff)) {
    return 'window must be an integer number of seconds ≥ 1';
  }
  return undefined;
}

export function sameModel(a: Model, b: Model): boolean {
  return (
    a.test === b.test &&
    a.min_sample_size === b.min_sample_size &&
    a.max_sample_size === b.max_sample_size &&
    a.window === b.window &&
    a.lower_boundary === b.lower_boundary &&
    a.upper_boundary === b.upper_boundary
  );
}
