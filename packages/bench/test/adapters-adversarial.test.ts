import { describe, expect, it } from 'vitest';
import { ADAPTER_NAMES, parseWithAdapter } from '../src/adapters/registry.js';

const MIB = 1 << 20;
const repeat = (unit: string) => unit.repeat(Math.ceil(MIB / unit.length));

/** 1 MiB lines built from what the line patterns can match in more than one way. */
const LINES: [string, string][] = [
  ['spaces between words', `a${' '.repeat(MIB)}x`],
  ['tabs between words', `a${'\t'.repeat(MIB)}x`],
  ['repeated criterion tails', repeat(' time: [')],
  ['a digit run where a libtest number goes', `test a ... bench: ${'1'.repeat(MIB)}x`],
  ['a digit run in a libtest spread', `test a ... bench: 1 ns/iter (+/- ${'1'.repeat(MIB)}x`],
  ['digits and dots', repeat('1.')],
  ['digits and commas', repeat('1,')],
  ['repeated ns/iter', repeat(' 1 ns/iter')],
  ['repeated ±', repeat(' ±1')],
  ['repeated Catch2 columns', repeat(' 1 1 1 ns')],
  ['repeated Ruby columns', `      user     system      total        real\na${repeat(' 1 1 1 ( 1)')}`],
  ['spaces in an armed Ruby row', `      user     system      total        real\na${' '.repeat(MIB)}x`],
  ['a digit run in an Iai change', `  Instructions: 1 (+${'1'.repeat(MIB)}x`],
  ['repeated dart runtimes', repeat('(RunTime): 1')],
  ['repeated benchmark.js tails', repeat(' x 1 ops/sec')],
  ['repeated asv dots', `[ 1%] ·${'·'.repeat(MIB)}x`],
  ['repeated gungraun metric bars', `  Instructions: ${repeat('1|')}`],
  // Inputs of many lines stay within the report's line limit (~100k lines of 10 bytes here).
  ['unclosed braces on every line', repeat('{        \n')],
  ['objects nested line by line', `${'{"a":     \n'.repeat(MIB / 11)}1${'}'.repeat(MIB / 11)}`],
  ['Catch2 rules on every line', repeat(`${'-'.repeat(79)}\n`)],
];

// The old patterns took minutes here (16 KiB of spaces: 0.4 s, growing with the square of the length);
// unloaded, every parse below takes at most ~0.3 s, and the deadline leaves room for a busy CI machine.
describe('every adapter on 1 MiB adversarial lines', () => {
  it.each(LINES)('%s: each adapter answers in well under a second', (_kind, line) => {
    const slow: string[] = [];
    for (const adapter of ADAPTER_NAMES) {
      const started = performance.now();
      parseWithAdapter(adapter, line, {});
      const ms = performance.now() - started;
      if (ms > 2000) slow.push(`${adapter} ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
  });
});
