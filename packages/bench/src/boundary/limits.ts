import { logNormalInverseCdf, normalInverseCdf, studentTInverseCdf } from './distributions.js';
import type { Model } from './model.js';
import { deltaQuartiles, mean, quartiles, sampleStdDev } from './sample-stats.js';

/** What a boundary row stores: all null when nothing could be computed. */
export interface Limits {
  baseline: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
}

export type BoundaryLimit = 'lower' | 'upper';

export const NO_LIMITS: Limits = Object.freeze({ baseline: null, lower_limit: null, upper_limit: null });

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

function sided(model: Model, baseline: number | null, lower: (b: number) => number, upper: (b: number) => number) {
  const lowerLimit = model.lower_boundary === null ? null : finiteOrNull(lower(model.lower_boundary));
  const upperLimit = model.upper_boundary === null ? null : finiteOrNull(upper(model.upper_boundary));
  return { baseline, lower_limit: lowerLimit, upper_limit: upperLimit };
}

export const percentageLimits = (model: Model, mu: number): Limits =>
  sided(
    model,
    mu,
    (l) => mu - mu * l,
    (u) => mu + mu * u,
  );

export const zScoreLimits = (model: Model, mu: number, sigma: number): Limits =>
  sided(
    model,
    mu,
    (l) => 2 * mu - normalInverseCdf(l, mu, sigma),
    (u) => normalInverseCdf(u, mu, sigma),
  );

/** Student-t prediction interval: scale σ·√(1 + 1/n), n − 1 degrees of freedom. */
export function tTestLimits(model: Model, mu: number, sigma: number, n: number): Limits {
  const scale = sigma * Math.sqrt(1 + 1 / n);
  return sided(
    model,
    mu,
    (l) => 2 * mu - studentTInverseCdf(l, mu, scale, n - 1),
    (u) => studentTInverseCdf(u, mu, scale, n - 1),
  );
}

export function logNormalLimits(model: Model, data: readonly number[]): Limits {
  const logs = data.map(Math.log);
  const location = mean(logs);
  if (location === undefined) return NO_LIMITS;
  const scale = sampleStdDev(logs, location);
  if (scale === undefined) return NO_LIMITS;
  const baseline = Math.exp(location);
  if (!Number.isFinite(baseline)) return NO_LIMITS;
  return sided(
    model,
    baseline,
    (l) => 2 * baseline - logNormalInverseCdf(l, location, scale),
    (u) => logNormalInverseCdf(u, location, scale),
  );
}

export const iqrLimits = (model: Model, q1: number, q2: number, q3: number): Limits =>
  sided(
    model,
    q2,
    (l) => q2 - (q3 - q1) * l,
    (u) => q2 + (q3 - q1) * u,
  );

export const deltaIqrLimits = (model: Model, q2: number, deltaQ1: number, deltaQ3: number): Limits =>
  sided(
    model,
    q2,
    (l) => q2 - q2 * (deltaQ3 - deltaQ1) * l,
    (u) => q2 + q2 * (deltaQ3 - deltaQ1) * u,
  );

function limitsOfSample(model: Model, data: readonly number[]): Limits {
  switch (model.test) {
    case 'static':
      return { baseline: null, lower_limit: model.lower_boundary, upper_limit: model.upper_boundary };
    case 'percentage': {
      const mu = mean(data);
      return mu === undefined ? NO_LIMITS : percentageLimits(model, mu);
    }
    case 'z_score':
    case 't_test': {
      const mu = mean(data);
      const sigma = mu === undefined ? undefined : sampleStdDev(data, mu);
      if (mu === undefined || sigma === undefined) return NO_LIMITS;
      return model.test === 'z_score' ? zScoreLimits(model, mu, sigma) : tTestLimits(model, mu, sigma, data.length);
    }
    case 'log_normal':
      return logNormalLimits(model, data);
    case 'iqr': {
      const q = quartiles(data);
      return q === undefined ? NO_LIMITS : iqrLimits(model, q.q1, q.q2, q.q3);
    }
    case 'delta_iqr': {
      const q = quartiles(data);
      const delta = deltaQuartiles(data);
      return q === undefined || delta === undefined ? NO_LIMITS : deltaIqrLimits(model, q.q2, delta.q1, delta.q3);
    }
    case 'change_point': {
      // The regime's location; a change point has no per-value limits (see `domain/change-point-check.ts`).
      const q = quartiles(data);
      return q === undefined ? NO_LIMITS : { baseline: q.q2, lower_limit: null, upper_limit: null };
    }
  }
}

/**
 * The boundary of a new metric given its historical sample (newest first, already truncated to
 * `max_sample_size`). An empty or too small sample yields no limits, so a series' first metric never alerts.
 */
export function computeLimits(model: Model, data: readonly number[]): Limits {
  if (model.lower_boundary === null && model.upper_boundary === null) return NO_LIMITS;
  if (model.min_sample_size !== null && data.length < model.min_sample_size) return NO_LIMITS;
  if (data.length === 0) return NO_LIMITS;
  return limitsOfSample(model, data);
}

/** Which limit a value breaks (strictly), if any. */
export function outlier(limits: Limits, value: number): BoundaryLimit | undefined {
  if (limits.lower_limit !== null && value < limits.lower_limit) return 'lower';
  if (limits.upper_limit !== null && value > limits.upper_limit) return 'upper';
  return undefined;
}
