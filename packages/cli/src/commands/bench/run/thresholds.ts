import { UsageError } from '../../../usage.js';
import { parseNumber, type Values } from '../args.js';

export interface Model {
  test: string;
  min_sample_size?: number;
  max_sample_size?: number;
  window?: number;
  lower_boundary?: number;
  upper_boundary?: number;
}

export interface ReportThresholds {
  models?: Record<string, Model>;
  reset?: boolean;
}

/** Bencher's seven tests and Atrium's `change_point` extension. */
export const TESTS = [
  'static',
  'percentage',
  'z_score',
  't_test',
  'log_normal',
  'iqr',
  'delta_iqr',
  'change_point',
] as const;
const TEST_ALIASES: Record<string, string> = { z: 'z_score', t: 't_test' };

const MODEL_OPTIONS = [
  ['threshold-min-sample-size', 'min_sample_size', true],
  ['threshold-max-sample-size', 'max_sample_size', true],
  ['threshold-window', 'window', true],
  ['threshold-lower-boundary', 'lower_boundary', false],
  ['threshold-upper-boundary', 'upper_boundary', false],
] as const;

/**
 * `--threshold-measure M --threshold-test T [--threshold-… V]`, repeatable and matched by position: the
 * i-th test and options belong to the i-th measure; `_` leaves a position unset.
 */
export function thresholdsFrom(values: Values): ReportThresholds | undefined {
  const measures = values.list('threshold-measure');
  const tests = values.list('threshold-test');
  const reset = values.flag('thresholds-reset');
  if (tests.length !== measures.length) {
    throw new UsageError(
      `${measures.length} --threshold-measure but ${tests.length} --threshold-test: give one test per measure`,
    );
  }
  const models: Record<string, Model> = {};
  measures.forEach((measure, i) => {
    const raw = tests[i] as string;
    const test = TEST_ALIASES[raw] ?? raw;
    if (!(TESTS as readonly string[]).includes(test)) {
      throw new UsageError(`--threshold-test must be one of ${TESTS.join(', ')}, got '${raw}'`);
    }
    models[measure] = { test };
  });
  for (const [option, key, integer] of MODEL_OPTIONS) {
    const given = values.list(option);
    if (given.length > measures.length) {
      throw new UsageError(`more --${option} (${given.length}) than --threshold-measure (${measures.length})`);
    }
    given.forEach((raw, i) => {
      if (raw === '_') return;
      const model = models[measures[i] as string] as Model;
      model[key] = parseNumber(`--${option}`, raw, integer ? { integer: true, min: 0 } : {});
    });
  }
  if (measures.length === 0 && !reset) return undefined;
  return { ...(measures.length > 0 ? { models } : {}), ...(reset ? { reset: true } : {}) };
}
