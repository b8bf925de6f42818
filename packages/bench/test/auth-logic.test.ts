import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../src/auth/login-guard.js';
import { withDefaultBoundary } from '../src/domain/project-defaults.js';
import { flattenStatistic, METRIC_RENAMES, renameDeprecated } from '../src/wire/deprecated-names.js';

const model = { test: 't_test', min_sample_size: null, max_sample_size: null, window: null } as const;

describe('the sign-up and log-in guard', () => {
  it('allows `limit` attempts per key in a window, then says how long to wait, and forgets old windows', () => {
    const limiter = new AttemptLimiter(3, 60_000, 2);
    expect([0, 1, 2].map((t) => limiter.hit('a', t))).toEqual([undefined, undefined, undefined]);
    expect(limiter.hit('a', 30_000)).toBe(30);
    expect(limiter.hit('b', 30_000)).toBeUndefined();
    expect(limiter.hit('a', 60_000)).toBeUndefined(); // a new window
    // Past maxKeys the oldest key is dropped: 'b' starts over.
    limiter.hit('c', 61_000);
    for (let i = 0; i < 3; i++) expect(limiter.hit('b', 62_000)).toBeUndefined();
  });
});

describe('deprecated input names', () => {
  it.each([
    [
      { value: 1, lower_bound: 0 },
      { ok: true, value: { value: 1, lower_value: 0 } },
    ],
    [
      { value: 1, upper_bound: 2, lower_bound: 0 },
      { ok: true, value: { value: 1, upper_value: 2, lower_value: 0 } },
    ],
    [
      { value: 1, lower_bound: 0, lower_value: 0 },
      { ok: true, value: { value: 1, lower_value: 0 } },
    ],
    [
      { value: 1, lower_bound: 0, lower_value: 1 },
      { ok: false, field: 'lower_bound' },
    ],
    [{ value: 1 }, { ok: true, value: { value: 1 } }],
  ])('renames BMF bounds %j', (given, expected) => {
    expect(renameDeprecated(given, METRIC_RENAMES)).toEqual(expected);
  });

  it.each([
    [
      { measure: 'm', statistic: { test: 't', upper_boundary: 0.9 } },
      { ok: true, value: { measure: 'm', test: 't', upper_boundary: 0.9 } },
    ],
    [
      { test: 'z', statistic: { test: 't' } },
      { ok: false, field: 'statistic.test' },
    ],
    [
      { test: 't', statistic: null },
      { ok: true, value: { test: 't', statistic: null } },
    ],
    [{ test: 't' }, { ok: true, value: { test: 't' } }],
  ])('flattens a threshold statistic %j', (given, expected) => {
    expect(flattenStatistic(given)).toEqual(expected);
  });
});

describe('the default boundary', () => {
  it.each([
    [undefined, { lower_boundary: null, upper_boundary: 0.95 }],
    ['latency', { lower_boundary: null, upper_boundary: 0.95 }],
    ['throughput', { lower_boundary: 0.95, upper_boundary: null }],
    ['Throughput', { lower_boundary: 0.95, upper_boundary: null }],
  ])('for measure %s', (measure, expected) => {
    expect(withDefaultBoundary({ ...model, lower_boundary: null, upper_boundary: null }, measure)).toMatchObject(
      expected,
    );
  });

  it('keeps a boundary that was given', () => {
    const given = { ...model, lower_boundary: null, upper_boundary: 0.99 };
    expect(withDefaultBoundary(given, 'throughput')).toBe(given);
  });
});
