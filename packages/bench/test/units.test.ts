import { describe, expect, it } from 'vitest';
import {
  deltaPercent,
  formatNumber,
  formatPercent,
  formatScaled,
  parseUnits,
  unitAxes,
  unitScale,
} from '../src/plot/units.js';

describe('units', () => {
  it.each([
    ['nanoseconds (ns)', 'nanoseconds', 'ns'],
    ['operations / second (ops/s)', 'operations / second', 'ops/s'],
    ['instructions', 'instructions', 'instructions'],
    ['Measure (units)', 'Measure', 'units'],
    ['(ms)', 'ms', 'ms'],
  ])('parses %s', (units, name, symbol) => {
    expect(parseUnits(units)).toEqual({ name, symbol });
  });

  it.each([
    // units, values, factor, symbol, label
    ['nanoseconds (ns)', [512], 1, 'ns', 'nanoseconds (ns)'],
    ['nanoseconds (ns)', [3_198_554_933, 1_200_000_000], 1e9, 's', 'seconds (s)'],
    ['nanoseconds (ns)', [145_589.38, 416_903.31], 1e3, 'µs', 'microseconds (µs)'],
    ['nanoseconds (ns)', [0, 2_500_000], 1e6, 'ms', 'milliseconds (ms)'],
    ['microseconds (us)', [4_000], 1e3, 'ms', 'milliseconds (ms)'],
    ['seconds (s)', [0.002, 0.004], 1e-3, 'ms', 'milliseconds (ms)'],
    ['seconds (s)', [12], 1, 's', 'seconds (s)'],
    ['seconds (s)', [0.0000002], 1e-9, 'ns', 'nanoseconds (ns)'],
    ['operations / second (ops/s)', [239_971.937], 1e3, 'Kops/s', 'thousand operations / second (Kops/s)'],
    ['operations / second (ops/s)', [5_000_000], 1e6, 'Mops/s', 'million operations / second (Mops/s)'],
    ['operations / second (ops/s)', [12.5], 1, 'ops/s', 'operations / second (ops/s)'],
    ['bytes (B)', [2048, 10_000], 1024, 'KiB', 'kibibytes (KiB)'],
    ['bytes (B)', [3 * 1024 ** 2], 1024 ** 2, 'MiB', 'mebibytes (MiB)'],
    ['bytes (B)', [1000], 1, 'B', 'bytes (B)'],
    ['instructions', [1_234_567], 1e6, 'M instructions', 'million instructions (M instructions)'],
    ['cycles', [999], 1, 'cycles', 'cycles'],
    ['Measure (units)', [4e9], 1e9, 'B units', 'billion Measure (B units)'],
    ['percentage (%)', [250_000], 1, '%', 'percentage (%)'],
    ['nanoseconds (ns)', [], 1, 'ns', 'nanoseconds (ns)'],
    ['nanoseconds (ns)', [Number.NaN, 0], 1, 'ns', 'nanoseconds (ns)'],
  ])('scales %s for %j', (units, values, factor, symbol, label) => {
    const scale = unitScale(units, values);
    expect(scale.factor).toBeCloseTo(factor, 15);
    expect(scale.symbol).toBe(symbol);
    expect(scale.label).toBe(label);
  });

  it.each([
    [239971.93743794155, 4, '239,972'],
    [239.971937, 4, '240.0'],
    [3.198554933, 4, '3.199'],
    [3.198554933, 2, '3.2'],
    [0.0012346, 3, '0.00123'],
    [-416.9033125, 4, '-416.9'],
    [0, 4, '0'],
    [100_000_000, 3, '100,000,000'],
    [1.5e25, 3, '1.50e25'],
    [2e-9, 2, '2.0e-9'],
    [Number.POSITIVE_INFINITY, 4, 'Infinity'],
  ])('formats %s at %s significant digits', (value, significant, text) => {
    expect(formatNumber(value, significant)).toBe(text);
  });

  it('formats a value in its scale', () => {
    const scale = unitScale('operations / second (ops/s)', [239_971.937]);
    expect(formatScaled(239_971.937, scale)).toBe('240.0 Kops/s');
    expect(formatScaled(3_198_554_933, unitScale('nanoseconds (ns)', [3_198_554_933]))).toBe('3.199 s');
  });

  it.each([
    [110, 100, 10, '+10.00 %'],
    [95, 100, -5, '−5.00 %'],
    [0, 100, -100, '−100.00 %'],
    [5, 0, 0, '0.00 %'],
    [100, 100, 0, '0.00 %'],
    [-50, -100, 50, '+50.00 %'],
    [Number.NaN, 100, 0, '0.00 %'],
  ])('Δ%% of %s against %s', (value, baseline, percent, text) => {
    expect(deltaPercent(value, baseline)).toBeCloseTo(percent, 10);
    expect(formatPercent(deltaPercent(value, baseline))).toBe(text);
  });

  it.each([
    [[], []],
    [['ns'], [{ units: 'ns', side: 'left' }]],
    [
      ['operations / second (ops/s)', 'nanoseconds (ns)', 'operations / second (ops/s)'],
      [
        { units: 'operations / second (ops/s)', side: 'left' },
        { units: 'nanoseconds (ns)', side: 'right' },
      ],
    ],
    [
      ['B', 'cycles', 's'],
      [
        { units: 'B', side: 'left' },
        { units: 'cycles', side: 'right' },
        { units: 's', side: 'left' },
      ],
    ],
  ])('one axis per unit: %j', (units, axes) => {
    expect(unitAxes(units)).toEqual(axes);
  });
});
