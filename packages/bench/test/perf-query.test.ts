import { describe, expect, it } from 'vitest';
import { groupByPermutation, type PerfDimensions } from '../src/domain/perf-query.js';

const dimensions: PerfDimensions = {
  heads: ['h1', 'h2'],
  testbeds: ['t1'],
  benchmarks: ['b1', 'b2'],
  measures: ['m1', 'm2'],
};
const reports = [
  { uuid: 'r1', testbed_uuid: 't1' },
  { uuid: 'r2', testbed_uuid: 't1' },
  { uuid: 'r3', testbed_uuid: 't9' },
];
const headOf: Record<string, string> = { r1: 'h1', r2: 'h2', r3: 'h1' };
const metric = (id: string, report_uuid: string, benchmark_uuid: string, measure_uuid: string, head?: string) => ({
  id,
  report_uuid,
  head_uuid: head ?? headOf[report_uuid] ?? 'h9',
  benchmark_uuid,
  measure_uuid,
});

describe('groupByPermutation', () => {
  it.each([
    ['nothing', [], []],
    ['one metric, first permutation', [metric('a', 'r1', 'b1', 'm1')], [[0, ['a']]]],
    [
      'measure varies fastest, then benchmark',
      [metric('a', 'r1', 'b1', 'm2'), metric('b', 'r1', 'b2', 'm1')],
      [
        [1, ['a']],
        [2, ['b']],
      ],
    ],
    ['head varies slowest', [metric('a', 'r2', 'b2', 'm2')], [[7, ['a']]]],
    [
      'order kept within a permutation',
      [metric('a', 'r2', 'b1', 'm1'), metric('b', 'r1', 'b1', 'm1'), metric('c', 'r2', 'b1', 'm1')],
      [
        [0, ['b']],
        [4, ['a', 'c']],
      ],
    ],
    [
      'a report at a version both heads hold is plotted on each, as read through each',
      [metric('a', 'r1', 'b1', 'm1', 'h1'), metric('b', 'r1', 'b1', 'm1', 'h2')],
      [
        [0, ['a']],
        [4, ['b']],
      ],
    ],
    [
      'unknown report, head, testbed, benchmark or measure left out',
      [
        metric('a', 'r9', 'b1', 'm1'),
        metric('b', 'r3', 'b1', 'm1'),
        metric('c', 'r1', 'b9', 'm1'),
        metric('d', 'r1', 'b1', 'm9'),
        metric('e', 'r1', 'b1', 'm1', 'h9'),
      ],
      [],
    ],
  ] as const)('%s', (_name, metrics, expected) => {
    const groups = groupByPermutation(dimensions, reports, metrics);
    const found = groups.flatMap((group, i) => (group ? [[i, group.map((row) => row.id)]] : []));
    expect(found).toEqual(expected);
  });
});
