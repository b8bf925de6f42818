import { describe, expect, it, vi } from 'vitest';
import type { ChangePoint, ChangePointOptions } from '../src/boundary/change-point.js';
import type { Model } from '../src/boundary/model.js';
import { judgeChangePoint } from '../src/domain/change-point-check.js';

/**
 * A stand-in detector: it finds a change at index 10 of any series of 14 or more values whose score (6) reaches
 * the confidence's requirement (0.99 → 5, 0.999 → 7), increase or decrease by the last value's sign against 100.
 * The real detector has its own table-driven tests; this one pins what the integration does with its answers.
 */
const asked: ChangePointOptions[] = [];
vi.mock('../src/boundary/change-point.js', () => ({
  detectChangePoint: (values: readonly number[], options: ChangePointOptions): ChangePoint | undefined => {
    asked.push(options);
    const needed = options.confidence >= 0.999 ? 7 : 5;
    if (values.length < Math.max(14, options.minSampleSize) || needed > 6) return undefined;
    const after = values.at(-1) as number;
    const direction = after > 100 ? 'increase' : 'decrease';
    return { index: 10, before: 100, after, shift: (after - 100) / 100, direction, score: 6 };
  },
}));

const model = (fields: Partial<Model>): Model => ({
  test: 'change_point',
  min_sample_size: null,
  max_sample_size: null,
  window: null,
  lower_boundary: null,
  upper_boundary: null,
  ...fields,
});
const history = (n: number) => Array.from({ length: n }, (_, i) => ({ metricUuid: `m${i}`, value: 100 }));

describe('judgeChangePoint: what a change_point threshold makes of the detector', () => {
  it.each([
    ['an increase under an upper boundary alerts upper', { upper_boundary: 0.99 }, 130, 'upper'],
    ['a decrease under an upper-only boundary is recorded, no alert', { upper_boundary: 0.99 }, 70, undefined],
    ['a decrease under a lower boundary alerts lower', { lower_boundary: 0.99 }, 70, 'lower'],
    ['an increase under a lower-only boundary is recorded, no alert', { lower_boundary: 0.99 }, 130, undefined],
    ['both boundaries: an increase alerts upper', { lower_boundary: 0.99, upper_boundary: 0.99 }, 130, 'upper'],
    [
      'a change found at the looser confidence but not at its direction’s stricter one: recorded, no alert',
      { lower_boundary: 0.99, upper_boundary: 0.999 },
      130,
      undefined,
    ],
  ] as const)('%s', (_, boundaries, newest, alert) => {
    const judged = judgeChangePoint(model(boundaries), history(20), { metricUuid: 'new', value: newest });
    expect(judged.found).toMatchObject({ lastMetricUuid: 'm9', firstMetricUuid: 'm10', change: { index: 10 } });
    expect(judged.alert).toBe(alert);
    expect(judged.limits).toEqual({ baseline: 100, lower_limit: null, upper_limit: null });
  });

  it('detects at the lowest configured confidence with the model’s min_sample_size (default 2) and the values before the regime', () => {
    asked.length = 0;
    judgeChangePoint(model({ lower_boundary: 0.99, upper_boundary: 0.999 }), history(20), {
      metricUuid: 'n',
      value: 500,
    });
    const earlier = [90, 91, 92];
    judgeChangePoint(
      model({ upper_boundary: 0.99, min_sample_size: 5 }),
      history(20),
      { metricUuid: 'n', value: 1 },
      earlier,
    );
    expect(asked.slice(0, 2)).toEqual([
      { confidence: 0.99, minSampleSize: 2, earlier: [] },
      { confidence: 0.999, minSampleSize: 2, earlier: [] },
    ]);
    expect(asked.at(-1)).toEqual({ confidence: 0.99, minSampleSize: 5, earlier });
  });

  it.each([
    ['no history', 0, {}],
    ['a history shorter than min_sample_size', 8, { min_sample_size: 9 }],
  ] as const)('judges nothing with %s', (_, length, fields) => {
    const judged = judgeChangePoint(model({ upper_boundary: 0.99, ...fields }), history(length), {
      metricUuid: 'n',
      value: 500,
    });
    expect(judged).toEqual({ limits: { baseline: null, lower_limit: null, upper_limit: null } });
  });

  it('without a change, the baseline is the regime’s median and there are no limits', () => {
    const values = [90, 100, 110, 100, 105];
    const regime = values.map((value, i) => ({ metricUuid: `m${i}`, value }));
    expect(judgeChangePoint(model({ upper_boundary: 0.99 }), regime, { metricUuid: 'n', value: 500 })).toEqual({
      limits: { baseline: 100, lower_limit: null, upper_limit: null },
    });
  });
});
