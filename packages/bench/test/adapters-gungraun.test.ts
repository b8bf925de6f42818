import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGungraunStdout } from '../src/adapters/gungraun.js';

// Bencher's own cases for `rust_gungraun` terminal output (lib/bencher_adapter, gungraun_stdout.rs tests), ported:
// every benchmark of each fixture with all its measures and values, nothing more.
const read = (file: string) => readFileSync(join('/work/shared/fixtures/bench-adapters/rust/gungraun', file), 'utf8');

type Expected = Record<string, Record<string, number>>;

const FIB = 'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci';
const SHORT = { instructions: 1734, 'l1-hits': 2359, 'l2-hits': 0, 'ram-hits': 3, 'total-read-write': 2362 };
const LONG = { instructions: 26214734, 'l1-hits': 35638619, 'l2-hits': 0, 'ram-hits': 3, 'total-read-write': 35638622 };
const FIBONACCI: Expected = {
  [`${FIB} short:10`]: { ...SHORT, 'estimated-cycles': 2464 },
  [`${FIB} long:30`]: { ...LONG, 'estimated-cycles': 35638724 },
};
const DHAT_SHORT = {
  'total-bytes': 29499,
  'total-blocks': 2806,
  'at-t-gmax-bytes': 378,
  'at-t-gmax-blocks': 34,
  'at-t-end-bytes': 0,
  'at-t-end-blocks': 0,
  'reads-bytes': 57725,
  'writes-bytes': 73810,
};
const DHAT_LONG = {
  'total-bytes': 26294939,
  'total-blocks': 2328086,
  'at-t-gmax-bytes': 933718,
  'at-t-gmax-blocks': 18344,
  'at-t-end-bytes': 0,
  'at-t-end-blocks': 0,
  'reads-bytes': 47577425,
  'writes-bytes': 37733810,
};
const WITH_DHAT: Expected = {
  [`${FIB} short:10`]: { ...FIBONACCI[`${FIB} short:10`], ...DHAT_SHORT },
  [`${FIB} long:30`]: { ...FIBONACCI[`${FIB} long:30`], ...DHAT_LONG },
};
const numbered = (slugs: string[]) => Object.fromEntries(slugs.map((slug, i) => [slug, i + 1]));
const CACHE_SIM = [
  'instructions',
  'dr',
  'dw',
  'i1mr',
  'd1mr',
  'd1mw',
  'ilmr',
  'dlmr',
  'dlmw',
  'i1-miss-rate',
  'lli-miss-rate',
  'd1-miss-rate',
  'lld-miss-rate',
  'll-miss-rate',
  'l1-hits',
  'l2-hits',
  'ram-hits',
  'l1-hit-rate',
  'll-hit-rate',
  'ram-hit-rate',
  'total-read-write',
  'estimated-cycles',
];
const CALLGRIND_EXTRA = ['sys-count', 'sys-time', 'sys-cpu-time', 'global-bus-events', 'bc', 'bcm', 'bi', 'bim'];
const CUSTOM = 'rust_iai_callgrind::custom_format';
const errorTool = (tool: string, format: string): Expected => ({
  [`${CUSTOM}::${format}_format just_errors`]: { [`${tool}-errors`]: 1 },
  [`${CUSTOM}::${format}_format metrics_mixed`]: numbered([
    `${tool}-contexts`,
    `${tool}-suppressed-contexts`,
    `${tool}-suppressed-errors`,
    `${tool}-errors`,
  ]),
  [`${CUSTOM}::${format}_format all_metrics`]: numbered([
    `${tool}-errors`,
    `${tool}-contexts`,
    `${tool}-suppressed-errors`,
    `${tool}-suppressed-contexts`,
  ]),
});
const LINES = 'rust_iai_callgrind::bench::multiple_lines';
const six = (from: number) =>
  Object.fromEntries(
    ['instructions', 'l1-hits', 'l2-hits', 'ram-hits', 'total-read-write', 'estimated-cycles'].map((slug, i) => [
      slug,
      from + i,
    ]),
  );

const CASES: [string, Expected][] = [
  ['without-optional-metrics.txt', FIBONACCI],
  ['with-dhat.txt', WITH_DHAT],
  ['dhat-then-callgrind.txt', WITH_DHAT],
  [
    'with-dhat-and-global-bus-events.txt',
    {
      [`${FIB} short:10`]: { ...WITH_DHAT[`${FIB} short:10`], 'global-bus-events': 2 },
      [`${FIB} long:30`]: { ...WITH_DHAT[`${FIB} long:30`], 'global-bus-events': 10 },
    },
  ],
  ['delta.txt', FIBONACCI],
  [
    'delta_with_inf.txt',
    {
      [`${FIB} short:10`]: { ...SHORT, 'total-read-write': 0, 'estimated-cycles': 2464 },
      [`${FIB} long:30`]: { ...LONG, 'estimated-cycles': 35638724 },
    },
  ],
  ['with-summary-and-regressions.txt', FIBONACCI],
  ['with-gungraun-summary.txt', FIBONACCI],
  ['ansi-escapes.txt', FIBONACCI],
  [
    'with-ge.txt',
    {
      [`${FIB} short:10`]: { ...FIBONACCI[`${FIB} short:10`], 'global-bus-events': 2 },
      [`${FIB} long:30`]: { ...FIBONACCI[`${FIB} long:30`], 'global-bus-events': 10 },
    },
  ],
  [
    'without-cachesim.txt',
    { [`${FIB} short:10`]: { instructions: 1734 }, [`${FIB} long:30`]: { instructions: 26214734 } },
  ],
  [
    'callgrind-mixed-order.txt',
    {
      [`${CUSTOM}::callgrind_format mixed_1`]: { instructions: 1, dr: 2, dw: 3 },
      [`${CUSTOM}::callgrind_format mixed_2`]: { instructions: 1, dr: 2, dw: 3 },
    },
  ],
  [
    'callgrind-ll-hits.txt',
    {
      [`${CUSTOM}::callgrind_format ll_hits`]: { instructions: 10, 'll-hits': 20 },
      [`${CUSTOM}::callgrind_format ll_hits_mixed`]: { instructions: 1, 'll-hits': 2 },
    },
  ],
  [
    'callgrind-all.txt',
    {
      [`${CUSTOM}::callgrind_format all_with_wb`]: numbered([
        ...CACHE_SIM,
        ...CALLGRIND_EXTRA,
        'ildmr',
        'dldmr',
        'dldmw',
      ]),
      [`${CUSTOM}::callgrind_format all_with_cachuse`]: numbered([
        ...CACHE_SIM,
        ...CALLGRIND_EXTRA,
        'accost1',
        'accost2',
        'sploss1',
        'sploss2',
      ]),
    },
  ],
  [
    'cachegrind.txt',
    {
      [`${CUSTOM}::cachegrind_format just_instructions`]: { instructions: 1 },
      [`${CUSTOM}::cachegrind_format metrics_mixed`]: numbered([
        'i1-miss-rate',
        'dr',
        'estimated-cycles',
        'total-read-write',
      ]),
      [`${CUSTOM}::cachegrind_format all_metrics`]: numbered(CACHE_SIM),
    },
  ],
  ['memcheck.txt', errorTool('memcheck', 'memcheck')],
  ['helgrind.txt', errorTool('helgrind', 'helgrind')],
  ['drd.txt', errorTool('drd', 'drd')],
  [
    'name_on_multiple_lines.txt',
    {
      [`${LINES} id:string with two\nlines`]: six(1),
      [`${LINES} id:string with multiple\nlines\nand one more`]: six(7),
    },
  ],
  [
    'name_on_multiple_lines_mixed.txt',
    {
      [`${LINES} id:first with one line`]: six(1),
      [`${LINES} id:two\nlines`]: six(7),
      [`${LINES} id:last with one line`]: six(13),
    },
  ],
];

describe("the Gungraun terminal output, as Bencher's rust_gungraun adapter reads it", () => {
  it.each(CASES)('%s', (file, expected) => {
    const results = parseGungraunStdout(read(file), {});
    const actual = Object.fromEntries(
      [...(results ?? [])].map(([name, measures]) => [
        name,
        Object.fromEntries([...measures].map(([slug, metric]) => [slug, metric.value])),
      ]),
    );
    expect(actual).toEqual(expected);
    for (const measures of results?.values() ?? []) {
      for (const metric of measures.values())
        expect([metric.lower_value, metric.upper_value]).toEqual([undefined, undefined]);
    }
  });

  it('leaves out a metric Bencher does not know, and a header no metric follows', () => {
    const text = [
      'a::b::c',
      '  Instructions:    5|N/A (*********)',
      '  Made Up:         6|N/A (*********)',
      '  ======= DHAT =======',
      'trailing',
    ].join('\n');
    expect(parseGungraunStdout(text, {})).toEqual(new Map([['a::b::c', new Map([['instructions', { value: 5 }]])]]));
  });
});
