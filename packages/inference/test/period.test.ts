import { describe, expect, it } from 'vitest';
import { parseResetPeriod, periodAt } from '../src/tenancy/period.js';

const at = (iso: string) => Date.parse(iso);

describe('reset periods', () => {
  it.each([
    ['day', { unit: 'days', count: 1 }],
    ['week', { unit: 'days', count: 7 }],
    [' Month ', { unit: 'months', count: 1 }],
    ['30d', { unit: 'days', count: 30 }],
    ['0d', undefined],
    ['fortnight', undefined],
    ['1h', undefined],
    ['-3d', undefined],
  ])('parses %j', (text, expected) => {
    expect(parseResetPeriod(text)).toEqual(expected);
  });

  it.each([
    // anchor, period, now, start, end
    ['2026-01-10T08:00:00Z', 'day', '2026-01-10T07:59:59Z', '2026-01-10T08:00:00Z', '2026-01-10T08:00:00Z'],
    ['2026-01-10T08:00:00Z', 'day', '2026-01-10T08:00:00Z', '2026-01-10T08:00:00Z', '2026-01-11T08:00:00Z'],
    ['2026-01-10T08:00:00Z', 'day', '2026-01-12T07:59:59Z', '2026-01-11T08:00:00Z', '2026-01-12T08:00:00Z'],
    ['2026-01-10T08:00:00Z', 'week', '2026-01-24T09:00:00Z', '2026-01-24T08:00:00Z', '2026-01-31T08:00:00Z'],
    ['2026-01-10T08:00:00Z', '3d', '2026-01-15T00:00:00Z', '2026-01-13T08:00:00Z', '2026-01-16T08:00:00Z'],
    // Calendar months from the anchor, the day clamped to short months.
    ['2026-01-31T12:00:00Z', 'month', '2026-02-28T11:59:59Z', '2026-01-31T12:00:00Z', '2026-02-28T12:00:00Z'],
    ['2026-01-31T12:00:00Z', 'month', '2026-02-28T12:00:00Z', '2026-02-28T12:00:00Z', '2026-03-31T12:00:00Z'],
    ['2026-01-31T12:00:00Z', 'month', '2026-04-30T13:00:00Z', '2026-04-30T12:00:00Z', '2026-05-31T12:00:00Z'],
    ['2024-02-29T00:00:00Z', 'month', '2025-02-28T00:00:00Z', '2025-02-28T00:00:00Z', '2025-03-29T00:00:00Z'],
    ['2026-03-15T00:00:00Z', 'month', '2027-03-14T23:00:00Z', '2027-02-15T00:00:00Z', '2027-03-15T00:00:00Z'],
  ])('anchor %s, %s, at %s: [%s, %s)', (anchor, period, now, start, end) => {
    expect(periodAt(at(anchor), parseResetPeriod(period), at(now))).toEqual({ start: at(start), end: at(end) });
  });

  it('a budget without a period never resets', () => {
    expect(periodAt(5, undefined, 10 ** 13)).toEqual({ start: 5, end: Number.POSITIVE_INFINITY });
  });
});
