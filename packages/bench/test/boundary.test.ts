import { describe, expect, it } from 'vitest';
import {
  lnGamma,
  normalInverseCdf,
  regularizedIncompleteBeta,
  standardNormalInverseCdf,
  studentTInverseCdf,
} from '../src/boundary/distributions.js';
import {
  computeLimits,
  deltaIqrLimits,
  iqrLimits,
  logNormalLimits,
  outlier,
  percentageLimits,
  tTestLimits,
  zScoreLimits,
} from '../src/boundary/limits.js';
import { type Model, type ModelTest, modelProblem, parseModelTest } from '../src/boundary/model.js';
import { deltaQuartiles, quartiles } from '../src/boundary/sample-stats.js';

const model = (test: ModelTest, fields: Partial<Model> = {}): Model => ({
  test,
  min_sample_size: null,
  max_sample_size: null,
  window: null,
  lower_boundary: null,
  upper_boundary: null,
  ...fields,
});

const both = (test: ModelTest, boundary: number) => model(test, { lower_boundary: boundary, upper_boundary: boundary });

/** Equal to about 12 significant digits (the reference values come from statrs; scipy differs in the 14th). */
const expectClose = (actual: number | null, expected: number) => {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
};

describe('inverse CDFs', () => {
  it.each([
    [0.5, 0],
    [0.85, 1.0364333894937896],
    [0.975, 1.959963984540054],
    [0.99, 2.3263478740408408],
    [1e-10, -6.361340902404056],
    [0.02425, -1.972961051311885],
    [1 - 1e-12, 7.0344869100478356],
  ])('Φ⁻¹(%s) = %s', (p, expected) => {
    expectClose(standardNormalInverseCdf(p), expected);
  });

  it('handles the edges of the domain', () => {
    expect(standardNormalInverseCdf(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(standardNormalInverseCdf(1)).toBe(Number.POSITIVE_INFINITY);
    expect(standardNormalInverseCdf(1.5)).toBeNaN();
    expect(studentTInverseCdf(Number.NaN, 0, 1, 3)).toBeNaN();
  });

  it.each([
    // scipy.stats.t.ppf(p, df)
    [0.85, 5, 1.1557673428942927],
    [0.99, 1, 31.820515953773935],
    [0.99, 2, 6.9645567342832715],
    [0.977, 24, 2.104414722704815],
    [0.999, 3, 10.214531852407383],
    [0.01, 63, -2.387007863469797],
    [0.95, 1000, 1.6463788172854643],
  ])('Student-t quantile p=%s df=%s', (p, df, expected) => {
    expectClose(studentTInverseCdf(p, 0, 1, df), expected);
  });

  it('supports location and scale', () => {
    expectClose(normalInverseCdf(0.977, 100, 10), 119.95393310167825);
    expectClose(studentTInverseCdf(0.85, 0, Math.sqrt(7 / 6), 5), 1.2483714094976244);
  });

  it('has an accurate log-gamma and incomplete beta', () => {
    expectClose(lnGamma(0.5), Math.log(Math.sqrt(Math.PI)));
    expectClose(lnGamma(10), Math.log(362880));
    expectClose(regularizedIncompleteBeta(2, 3, 0.4), 0.5248);
  });
});

describe('reference §3.4 test vectors', () => {
  it('percentage', () => {
    const limits = percentageLimits(both('percentage', 5), 1);
    expect(limits).toEqual({ baseline: 1, lower_limit: -4, upper_limit: 6 });
    const doc = percentageLimits(both('percentage', 0.1), 100);
    expectClose(doc.lower_limit, 90);
    expectClose(doc.upper_limit, 110);
  });

  it('z_score', () => {
    const unit = zScoreLimits(both('z_score', 0.85), 0, 1);
    expectClose(unit.lower_limit, -1.0364333894937896);
    expectClose(unit.upper_limit, 1.0364333894937896);
    const doc = zScoreLimits(both('z_score', 0.977), 100, 10);
    expectClose(doc.lower_limit, 80.04606689832175);
    expectClose(doc.upper_limit, 119.95393310167825);
    expect(doc.baseline).toBe(100);
  });

  it('t_test', () => {
    const unit = tTestLimits(both('t_test', 0.85), 0, 1, 6);
    expectClose(unit.lower_limit, -1.2483714094976244);
    expectClose(unit.upper_limit, 1.2483714094976244);
    const doc = tTestLimits(both('t_test', 0.977), 100, 10, 25);
    expectClose(doc.lower_limit, 78.53909652847402);
    expectClose(doc.upper_limit, 121.46090347152598);
  });

  it('log_normal', () => {
    const skewed = [...Array.from({ length: 5 }, () => [98, 99, 100, 101, 102]).flat(), 200];
    const first = logNormalLimits(both('log_normal', 0.977), skewed);
    expectClose(first.baseline, 102.69192869301948);
    expectClose(first.lower_limit, 70.49040406473313);
    expectClose(first.upper_limit, 134.89345332130583);
    const second = logNormalLimits(both('log_normal', 0.85), Array.from({ length: 6 }, () => [1, 2, 3, 4, 5]).flat());
    expectClose(second.baseline, 2.6051710846973517);
    expectClose(second.lower_limit, 0.467218645251152);
    expectClose(second.upper_limit, 4.743123524143551);
  });

  it('iqr', () => {
    expect(iqrLimits(both('iqr', 1.5), 1, 2, 3)).toEqual({ baseline: 2, lower_limit: -1, upper_limit: 5 });
    expect(iqrLimits(both('iqr', 2), 95, 100, 105)).toEqual({ baseline: 100, lower_limit: 80, upper_limit: 120 });
  });

  it('delta_iqr', () => {
    const limits = deltaIqrLimits(both('delta_iqr', 2), 100, 0.1, 0.3);
    expectClose(limits.lower_limit, 60);
    expectClose(limits.upper_limit, 140);
  });
});

describe('sample statistics', () => {
  it('interpolates quartiles like libtest', () => {
    expect(quartiles([4, 1, 3, 2, 5])).toEqual({ q1: 2, q2: 3, q3: 4 });
    expect(quartiles([1, 2, 3, 4])).toEqual({ q1: 1.75, q2: 2.5, q3: 3.25 });
    expect(quartiles([7])).toEqual({ q1: 7, q2: 7, q3: 7 });
  });

  it('takes delta quartiles over consecutive pairs in data order', () => {
    // |(110-100)/100| = 0.1, |(99-110)/110| = 0.1, |(99-99)/99| = 0
    const delta = deltaQuartiles([100, 110, 99, 99]);
    expect(delta?.q2).toBeCloseTo(0.1, 15);
    expect(deltaQuartiles([1])).toBeUndefined();
  });
});

describe('computeLimits', () => {
  it('never bounds the first metric of a series, even for static', () => {
    expect(computeLimits(both('static', 5), [])).toEqual({ baseline: null, lower_limit: null, upper_limit: null });
    expect(computeLimits(both('static', 5), [1])).toEqual({ baseline: null, lower_limit: 5, upper_limit: 5 });
  });

  it('respects min_sample_size', () => {
    const m = model('percentage', { upper_boundary: 0.1, min_sample_size: 3 });
    expect(computeLimits(m, [1, 2]).upper_limit).toBeNull();
    expectClose(computeLimits(m, [1, 2, 3]).upper_limit, 2.2);
  });

  it('gives no limits when the spread is zero or the sample too small', () => {
    const t = model('t_test', { upper_boundary: 0.99 });
    expect(computeLimits(t, [5, 5, 5]).upper_limit).toBeNull();
    expect(computeLimits(t, [5]).upper_limit).toBeNull();
    expect(computeLimits(model('log_normal', { upper_boundary: 0.99 }), [3, 3]).upper_limit).toBeNull();
    expect(computeLimits(model('delta_iqr', { upper_boundary: 1 }), [3]).upper_limit).toBeNull();
  });

  it('limits only the configured side', () => {
    const limits = computeLimits(model('z_score', { upper_boundary: 0.99 }), [1, 2, 3]);
    expect(limits.baseline).toBe(2);
    expect(limits.lower_limit).toBeNull();
    expect(limits.upper_limit).not.toBeNull();
  });

  it('uses strict inequalities for outliers', () => {
    const limits = { baseline: 5, lower_limit: 4, upper_limit: 6 };
    expect(outlier(limits, 6)).toBeUndefined();
    expect(outlier(limits, 4)).toBeUndefined();
    expect(outlier(limits, 6.000001)).toBe('upper');
    expect(outlier(limits, 3.9)).toBe('lower');
    expect(outlier({ baseline: null, lower_limit: null, upper_limit: null }, 1e300)).toBeUndefined();
  });
});

describe('model validation', () => {
  it.each([
    [model('static', { upper_boundary: 1 }), undefined],
    [model('static', { lower_boundary: 2, upper_boundary: 1 }), 'lower_boundary must not exceed upper_boundary'],
    [model('static', { upper_boundary: 1, window: 5 }), 'a static threshold takes no'],
    [model('t_test'), 'needs a lower_boundary or an upper_boundary'],
    [model('t_test', { upper_boundary: 1 }), 'must be in [0.5, 1)'],
    [model('z_score', { lower_boundary: 0.4 }), 'must be in [0.5, 1)'],
    [model('t_test', { upper_boundary: 0.99, max_sample_size: 64 }), undefined],
    [model('t_test', { upper_boundary: 0.99, min_sample_size: 1 }), 'must be an integer ≥ 2'],
    [model('percentage', { upper_boundary: 0.1, min_sample_size: 1 }), undefined],
    [model('percentage', { upper_boundary: -0.1 }), 'must be ≥ 0'],
    [model('iqr', { upper_boundary: Number.POSITIVE_INFINITY }), 'finite'],
    [model('iqr', { upper_boundary: 1, min_sample_size: 10, max_sample_size: 5 }), 'min_sample_size must not exceed'],
    [model('delta_iqr', { upper_boundary: 1, window: 0 }), 'window must be'],
  ])('%# %j', (candidate, problem) => {
    const found = modelProblem(candidate);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('accepts the z and t aliases', () => {
    expect(parseModelTest('z')).toBe('z_score');
    expect(parseModelTest('t')).toBe('t_test');
    expect(parseModelTest('iqr')).toBe('iqr');
    expect(parseModelTest('chi')).toBeUndefined();
  });
});
