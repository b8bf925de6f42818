import { mulberry32 } from '@atrium/core';
import { parseCommandLine, Values } from './args.js';
import type { Io } from './io.js';

export interface MockOptions {
  seed: number | undefined;
  count: number;
  measures: readonly string[];
  pow: number;
}

type Bmf = Record<string, Record<string, { value: number; lower_value: number; upper_value: number }>>;

/**
 * Bencher Metric Format for benchmarks `bencher::mock_0…count-1`: benchmark c's value is uniform in
 * [10^pow·c, 10^pow·(c+1)), with lower and upper values at ±10 %.
 */
export function mockResults(
  options: MockOptions,
  random = options.seed === undefined ? Math.random : mulberry32(options.seed),
): Bmf {
  const scale = 10 ** options.pow;
  const bmf: Bmf = {};
  for (let c = 0; c < options.count; c++) {
    const measures: Bmf[string] = {};
    for (const measure of options.measures) {
      const value = scale * (c + random());
      measures[measure] = { value, lower_value: value * 0.9, upper_value: value * 1.1 };
    }
    bmf[`bencher::mock_${c}`] = measures;
  }
  return bmf;
}

const OPTIONS = {
  seed: { type: 'string' },
  count: { type: 'string' },
  measure: { type: 'string', multiple: true },
  pow: { type: 'string' },
  fail: { type: 'boolean' },
  flaky: { type: 'boolean' },
} as const;

/** `atrium bench mock`: prints mock BMF results; `--fail` (or a `--flaky` coin toss) then exits 1. */
export function mock(args: readonly string[], io: Io): void {
  const values = new Values(
    parseCommandLine(args, OPTIONS, {
      usage: 'atrium bench mock [--measure M]… [--count N] [--seed S] [--pow P] [--fail] [--flaky]',
    }),
    io.env,
  );
  const measures = values.list('measure');
  const bmf = mockResults({
    seed: values.number('seed', { integer: true, min: 0, max: 2 ** 32 - 1 }),
    count: values.number('count', { integer: true, min: 0, max: 100_000 }) ?? 5,
    measures: measures.length > 0 ? measures : ['latency'],
    pow: values.number('pow', { integer: true, min: -100, max: 100 }) ?? 1,
  });
  io.out(`${JSON.stringify(bmf, null, 2)}\n`);
  if (values.flag('fail') || (values.flag('flaky') && Math.random() < 0.5)) {
    throw new Error('mock: failing as asked (--fail/--flaky)');
  }
}
