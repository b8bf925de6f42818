import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldIterations } from '../src/adapters/fold.js';
import { type AdapterName, normalizeAdapter, parseWithAdapter } from '../src/adapters/registry.js';
import type { AdapterMetric, AdapterResults } from '../src/adapters/results.js';

const FIXTURES = '/work/shared/fixtures/bench-adapters';
const read = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

const expectMetric = (actual: AdapterMetric | undefined, expected: AdapterMetric) => {
  expect(actual).toBeDefined();
  for (const key of ['value', 'lower_value', 'upper_value'] as const) {
    const want = expected[key];
    if (want === undefined) expect(actual?.[key]).toBeUndefined();
    else expect(Math.abs((actual?.[key] as number) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
  }
};

/** Every fixture: its adapter, the benchmarks found in order, and the first measure of the last benchmark. */
const FIXTURE_TABLE: [string, AdapterName, string[], [string, string, AdapterMetric]][] = [
  [
    'c_sharp/dot_net/memory.json',
    'c_sharp_dot_net',
    ['BenchmarkDotNet.Samples.AllocEmptyList', 'BenchmarkDotNet.Samples.AllocExactList'],
    [
      'BenchmarkDotNet.Samples.AllocExactList',
      'latency',
      { value: 54.648447036743164, lower_value: 54.03457598193661, upper_value: 55.262318091549716 },
    ],
  ],
  [
    'c_sharp/dot_net/null_namespace.json',
    'c_sharp_dot_net',
    ['NullNamespaceMethod'],
    ['NullNamespaceMethod', 'latency', { value: 0, lower_value: 0, upper_value: 0 }],
  ],
  [
    'c_sharp/dot_net/two.json',
    'c_sharp_dot_net',
    ['BenchmarkDotNet.Samples.Intro.Sleep10', 'BenchmarkDotNet.Samples.Intro.Sleep20'],
    [
      'BenchmarkDotNet.Samples.Intro.Sleep20',
      'latency',
      { value: 20360791.931687497, lower_value: 20312811.199369717, upper_value: 20408772.664005276 },
    ],
  ],
  [
    'c_sharp/dot_net/two_more.json',
    'c_sharp_dot_net',
    ['Sample.Fib10', 'Sample.Fib20'],
    [
      'Sample.Fib20',
      'latency',
      { value: 51.52008151549559, lower_value: 50.729707813342635, upper_value: 52.310455217648546 },
    ],
  ],
  [
    'cpp/catch2/four.txt',
    'cpp_catch2',
    [
      'Fibonacci: Fibonacci 10',
      'Fibonacci: Fibonacci 20',
      'More Fibonacci: Fibonacci~ 5!',
      'More Fibonacci: Fibonacci-15_bench',
    ],
    ['More Fibonacci: Fibonacci-15_bench', 'latency', { value: 3789, lower_value: 3427, upper_value: 4151 }],
  ],
  [
    'cpp/catch2/issue_351.txt',
    'cpp_catch2',
    [
      'Unit_assignment Construction: Fibonacci 10',
      'Unit_assignment Construction: Fibonacci 20',
      'More Fibonacci: Fibonacci~ 5!',
      'More Fibonacci: Fibonacci-15_bench',
      'Even More Fibonacci With a long name: Fibonacci 10 with a long name',
      'Even More Fibonacci With a long name: Fibonacci 20',
    ],
    [
      'Even More Fibonacci With a long name: Fibonacci 20',
      'latency',
      { value: 41731, lower_value: 38475, upper_value: 44987 },
    ],
  ],
  [
    'cpp/catch2/two.txt',
    'cpp_catch2',
    ['Fibonacci: Fibonacci 10', 'Fibonacci: Fibonacci 20'],
    ['Fibonacci: Fibonacci 20', 'latency', { value: 1, lower_value: 1, upper_value: 1 }],
  ],
  ['cpp/google/two.txt', 'cpp_google', ['fib_10', 'fib_20'], ['fib_20', 'latency', { value: 27455.600415007055 }]],
  ['dart/benchmark_harness/one.txt', 'dart_benchmark_harness', ['Template'], ['Template', 'latency', { value: 1000 }]],
  [
    'dart/benchmark_harness/two.txt',
    'dart_benchmark_harness',
    ['Template', 'ForLoop'],
    ['ForLoop', 'latency', { value: 2000 }],
  ],
  [
    'go/bench/five.txt',
    'go_bench',
    [
      'BenchmarkFib10-8',
      'BenchmarkFib20',
      'BenchmarkFib/my_tabled_benchmark_-_10-8',
      'BenchmarkFib/my_tabled_benchmark_-_20',
      'BenchmarkFib/my/tabled/benchmark_-_20',
    ],
    ['BenchmarkFib/my/tabled/benchmark_-_20', 'latency', { value: 40537.456 }],
  ],
  [
    'go/bench/three.txt',
    'go_bench',
    ['BenchmarkFib10-8', 'BenchmarkFib20-8', 'BenchmarkFib20WithAuxMetric-8'],
    ['BenchmarkFib20WithAuxMetric-8', 'latency', { value: 25829 }],
  ],
  [
    'java/jmh/latency.json',
    'java_jmh',
    ['org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere'],
    [
      'org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere',
      'latency',
      { value: 3376238873122818600, lower_value: 3361950887378882600, upper_value: 3390526858866754600 },
    ],
  ],
  [
    'java/jmh/six.json',
    'java_jmh',
    [
      'com.github.caffeine.caffeine.cache.ComputeBenchmark.compute_sameKey',
      'com.github.guava.caffeine.cache.ComputeBenchmark.compute_sameKey',
      'com.github.hashmap.caffeine.cache.ComputeBenchmark.compute_sameKey',
      'com.github.caffeine.caffeine.cache.ComputeBenchmark.compute_spread',
      'com.github.guava.caffeine.cache.ComputeBenchmark.compute_spread',
      'com.github.hashmap.caffeine.cache.ComputeBenchmark.compute_spread',
    ],
    [
      'com.github.hashmap.caffeine.cache.ComputeBenchmark.compute_spread',
      'throughput',
      { value: 113640916.67262991, lower_value: 105176321.97352052, upper_value: 122105511.3717393 },
    ],
  ],
  [
    'java/jmh/throughput.json',
    'java_jmh',
    ['org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere'],
    [
      'org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere',
      'throughput',
      { value: 3376238873.1228185, lower_value: 3361950887.3788824, upper_value: 3390526858.8667545 },
    ],
  ],
  [
    'js/benchmark/four.txt',
    'js_benchmark',
    ['fib(10)', 'fib(20)', 'benchmark with x 2 many things', 'createObjectBuffer with 200 comments'],
    [
      'createObjectBuffer with 200 comments',
      'throughput',
      { value: 81.61, lower_value: 80.22263, upper_value: 82.99737 },
    ],
  ],
  [
    'js/benchmark/issue_506.txt',
    'js_benchmark',
    [
      'text encoder utf8',
      'text encoder utf16',
      'sha512 wasm from string utf8',
      'sha512 wasm from string utf16',
      'sha512 native from string utf8',
      'sha512 native from string utf16',
    ],
    [
      'sha512 native from string utf16',
      'throughput',
      { value: 29.76, lower_value: 27.736320000000003, upper_value: 31.78368 },
    ],
  ],
  [
    'js/time/four.txt',
    'js_time',
    ['default', 'benchmark_1', 'benchmark 2', 'benchmark 3: The Third - timer/timerEnd'],
    ['benchmark 3: The Third - timer/timerEnd', 'latency', { value: 8827000000 }],
  ],
  [
    'js/vitest/four.json',
    'js_vitest',
    [
      'fib.bench.ts > fibonacci > fib(10)',
      'fib.bench.ts > fibonacci > fib(20)',
      'sort.bench.ts > sorting > normal',
      'sort.bench.ts > sorting > reverse',
    ],
    ['sort.bench.ts > sorting > reverse', 'latency', { value: 10000000, lower_value: 7500000, upper_value: 12500000 }],
  ],
  [
    'js/vitest/two.json',
    'js_vitest',
    ['math.bench.ts > math > add', 'math.bench.ts > math > subtract'],
    ['math.bench.ts > math > subtract', 'latency', { value: 2000000, lower_value: 1500000, upper_value: 2500000 }],
  ],
  [
    'json/report_bmf_mixed.json',
    'json',
    ['31aba8a9-977a-47d1-9fb6-e6b94b428471', 'benchmark-b', 'tests::benchmark_c'],
    ['tests::benchmark_c', 'latency', { value: 3361, lower_value: 1093, upper_value: 1093 }],
  ],
  ['json/report_dhat.json', 'json', ['bench_play_game'], ['bench_play_game', 'Final Blocks', { value: 0 }]],
  [
    'json/report_latency.json',
    'json',
    ['tests::benchmark_a', 'tests::benchmark_b', 'tests::benchmark_c'],
    ['tests::benchmark_c', 'latency', { value: 3361, lower_value: 1093, upper_value: 1093 }],
  ],
  [
    'python/asv/six.txt',
    'python_asv',
    [
      'benchmarks.TimeSuite.time_iterkeys',
      'benchmarks.TimeSuite.time_keys',
      'benchmarks.TimeSuite.time_range',
      'benchmarks.TimeSuite.time_xrange',
      'benchmarks.TimeSuite.time_keys3',
      'benchmarks.TimeSuite.time_range3',
    ],
    ['benchmarks.TimeSuite.time_range3', 'latency', { value: 35500, lower_value: 35490, upper_value: 35510 }],
  ],
  [
    'python/pytest/four.json',
    'python_pytest',
    ['bench.py::test_fib_1', 'bench.py::test_fib_10', 'bench.py::test_fib_20', 'bench.py::test_sleep_2'],
    [
      'bench.py::test_sleep_2',
      'latency',
      { value: 2003843046.9999998, lower_value: 2001965388.274841, upper_value: 2005720705.7251585 },
    ],
  ],
  [
    'python/pytest/two.json',
    'python_pytest',
    ['bench.py::test_fib_10', 'bench.py::test_fib_20'],
    [
      'bench.py::test_fib_20',
      'latency',
      { value: 2985030.672661863, lower_value: 2810500.507247766, upper_value: 3159560.8380759596 },
    ],
  ],
  [
    'ruby/benchmark/five.txt',
    'ruby_benchmark',
    ['for:', 'times:', 'upto:', '>total:', '>avg:'],
    ['>avg:', 'latency', { value: 961255000 }],
  ],
  ['ruby/benchmark/two.txt', 'ruby_benchmark', ['sort!', 'sort'], ['sort', 'latency', { value: 1448327000 }]],
  [
    'rust/bench/failed.txt',
    'rust_bench',
    ['tests::benchmark_a', 'tests::benchmark_c'],
    ['tests::benchmark_c', 'latency', { value: 3215, lower_value: 2859, upper_value: 3571 }],
  ],
  [
    'rust/bench/ignore.txt',
    'rust_bench',
    ['tests::benchmark'],
    ['tests::benchmark', 'latency', { value: 3161, lower_value: 2186, upper_value: 4136 }],
  ],
  [
    'rust/bench/issue_390.txt',
    'rust_bench',
    [
      'bleu::benchmark::bench_batch_bleu',
      'bleu::benchmark::bench_bleu',
      'ngram::benchmark::bench_ngram',
      'tokenizer::benchmark::bench_tokenizer',
    ],
    [
      'tokenizer::benchmark::bench_tokenizer',
      'latency',
      { value: 15690.73, lower_value: 8940.759999999998, upper_value: 22440.7 },
    ],
  ],
  [
    'rust/bench/many.txt',
    'rust_bench',
    [
      'tests::benchmark',
      'tests::other_benchmark',
      'tests::last_benchmark',
      'tests::one_digit',
      'tests::two_digit',
      'tests::three_digit',
    ],
    ['tests::three_digit', 'latency', { value: 333000000000, lower_value: 0, upper_value: 666000000000 }],
  ],
  [
    'rust/bench/multi_target.txt',
    'rust_bench',
    ['tests::benchmark', 'tests::other_benchmark'],
    ['tests::other_benchmark', 'latency', { value: 3161, lower_value: 2186, upper_value: 4136 }],
  ],
  [
    'rust/bench/one.txt',
    'rust_bench',
    ['tests::benchmark'],
    ['tests::benchmark', 'latency', { value: 3161, lower_value: 2186, upper_value: 4136 }],
  ],
  [
    'rust/criterion/dogfood.txt',
    'rust_criterion',
    ['Adapter::Magic (JSON)', 'Adapter::Json', 'Adapter::Magic (Rust)', 'Adapter::Rust'],
    ['Adapter::Rust', 'latency', { value: 14884, lower_value: 14881, upper_value: 14887 }],
  ],
  [
    'rust/criterion/failed.txt',
    'rust_criterion',
    ['file', 'rolling_file', 'tracing_file', 'tracing_rolling_file'],
    ['tracing_rolling_file', 'latency', { value: 27365, lower_value: 25687, upper_value: 29160 }],
  ],
  [
    'rust/criterion/many.txt',
    'rust_criterion',
    ['file', 'rolling_file', 'tracing_file', 'tracing_rolling_file', 'benchmark: name with spaces'],
    ['benchmark: name with spaces', 'latency', { value: 20.93, lower_value: 18.195, upper_value: 24.24 }],
  ],
  [
    'rust/iai/change.txt',
    'rust_iai',
    ['iai_benchmark_short', 'iai_benchmark_long'],
    ['iai_benchmark_long', 'instructions', { value: 18454953 }],
  ],
  [
    'rust/iai/two.txt',
    'rust_iai',
    ['bench_fibonacci_short', 'bench_fibonacci_long'],
    ['bench_fibonacci_long', 'instructions', { value: 26214735 }],
  ],
  [
    'shell/hyperfine/one.json',
    'shell_hyperfine',
    ['sleep 0.01'],
    [
      'sleep 0.01',
      'latency',
      { value: 13317239.025420563, lower_value: 12317546.734914128, upper_value: 14316931.315926999 },
    ],
  ],
  [
    'shell/hyperfine/two.json',
    'shell_hyperfine',
    ['sleep 0.1', 'sleep 0.2'],
    [
      'sleep 0.2',
      'latency',
      { value: 208513999.10461542, lower_value: 204785557.65615162, upper_value: 212242440.55307922 },
    ],
  ],
];

describe('adapters on real tool output', () => {
  it.each(FIXTURE_TABLE)('%s with %s', (path, adapter, names, [benchmark, measure, metric]) => {
    const results = parseWithAdapter(adapter, read(path), {});
    expect([...(results?.keys() ?? [])]).toEqual(names);
    expectMetric(results?.get(benchmark)?.get(measure), metric);
    const magic = parseWithAdapter('magic', read(path), {});
    expect([...(magic?.keys() ?? [])]).toEqual(names);
  });

  it('reproduces the reference values', () => {
    const metric = (
      path: string,
      adapter: AdapterName,
      benchmark: string,
      measure = 'latency',
      average?: 'mean' | 'median',
    ) => parseWithAdapter(adapter, read(path), { average })?.get(benchmark)?.get(measure);
    expectMetric(metric('rust/bench/many.txt', 'rust_bench', 'tests::one_digit'), {
      value: 1000,
      lower_value: 0,
      upper_value: 2000,
    });
    expectMetric(metric('rust/criterion/many.txt', 'rust_criterion', 'file'), {
      value: 0.3239,
      lower_value: 0.32062,
      upper_value: 0.32755,
    });
    expectMetric(metric('rust/iai/two.txt', 'rust_iai', 'bench_fibonacci_short', 'estimated-cycles'), { value: 2404 });
    expectMetric(metric('cpp/google/two.txt', 'cpp_google', 'fib_20'), { value: 27455.600415007055 });
    expectMetric(metric('cpp/catch2/four.txt', 'cpp_catch2', 'Fibonacci: Fibonacci 10'), {
      value: 344,
      lower_value: 325,
      upper_value: 363,
    });
    expectMetric(metric('go/bench/three.txt', 'go_bench', 'BenchmarkFib20WithAuxMetric-8'), { value: 25829 });
    expectMetric(metric('js/benchmark/four.txt', 'js_benchmark', 'fib(10)', 'throughput'), {
      value: 1431759,
      lower_value: 1421163.9834,
      upper_value: 1442354.0166,
    });
    expectMetric(metric('js/time/four.txt', 'js_time', 'default'), { value: 7617000000 });
    expectMetric(metric('python/asv/six.txt', 'python_asv', 'benchmarks.TimeSuite.time_iterkeys'), {
      value: 11100,
      lower_value: 11090,
      upper_value: 11110,
    });
    expectMetric(metric('python/pytest/two.json', 'python_pytest', 'bench.py::test_fib_10'), {
      value: 24088.681333229408,
      lower_value: 17913.59114336808,
      upper_value: 30263.771523090734,
    });
    expectMetric(metric('ruby/benchmark/two.txt', 'ruby_benchmark', 'sort!'), { value: 1460465000 });
    expectMetric(metric('shell/hyperfine/one.json', 'shell_hyperfine', 'sleep 0.01'), {
      value: 13317239.025420565,
      lower_value: 12317546.73491413,
      upper_value: 14316931.315926999,
    });
    expectMetric(metric('shell/hyperfine/one.json', 'shell_hyperfine', 'sleep 0.01', 'latency', 'median'), {
      value: 13251329.96,
      lower_value: 10165892.46,
      upper_value: 21347058.46,
    });
    expectMetric(metric('c_sharp/dot_net/two.json', 'c_sharp_dot_net', 'BenchmarkDotNet.Samples.Intro.Sleep10'), {
      value: 10362283.085796878,
      lower_value: 10316580.967427673,
      upper_value: 10407985.204166083,
    });
    expectMetric(metric('js/vitest/two.json', 'js_vitest', 'math.bench.ts > math > add', 'latency', 'median'), {
      value: 750000,
    });
    expectMetric(metric('dart/benchmark_harness/one.txt', 'dart_benchmark_harness', 'Template'), { value: 1000 });
  });

  it('rejects an input without any benchmark and an unsupported average', () => {
    expect(parseWithAdapter('rust_bench', read('rust/bench/zero.txt'), {})).toBeUndefined();
    expect(parseWithAdapter('magic', read('rust/bench/zero.txt'), {})).toBeUndefined();
    expect(parseWithAdapter('rust_bench', read('rust/bench/one.txt'), { average: 'mean' })).toBeUndefined();
    expect(parseWithAdapter('rust_iai', read('rust/iai/two.txt'), { average: 'median' })).toBeUndefined();
    expect(parseWithAdapter('cpp_google', read('rust/bench/one.txt'), {})).toBeUndefined();
  });

  it('parses BMF strictly', () => {
    expect(parseWithAdapter('json', '{}', {})?.size).toBe(0);
    expect(parseWithAdapter('json', '{"b": {"latency": {"value": "fast"}}}', {})).toBeUndefined();
    expect(parseWithAdapter('json', '{"b": {"latency": {"lower_value": 1}}}', {})).toBeUndefined();
    expect(parseWithAdapter('json', '[1, 2]', {})).toBeUndefined();
    expect(parseWithAdapter('json', 'not json', {})).toBeUndefined();
    const extra = parseWithAdapter('json', '{"b": {"m": {"value": 1, "unknown": true}}}', {});
    expect(extra?.get('b')?.get('m')).toEqual({ value: 1 });
  });

  it('normalises adapter names', () => {
    expect(normalizeAdapter('rust')).toBe('magic');
    expect(normalizeAdapter('js_vitest')).toBe('js_vitest');
    expect(normalizeAdapter('cobol')).toBeUndefined();
  });
});

/** Gungraun fixtures: benchmarks in order, the measure count and first measure of the last benchmark. */
const GUNGRAUN_TABLE: [string, string[], number, [string, string, number]][] = [
  [
    'ansi-escapes.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'cachegrind.txt',
    [
      'rust_iai_callgrind::custom_format::cachegrind_format just_instructions',
      'rust_iai_callgrind::custom_format::cachegrind_format metrics_mixed',
      'rust_iai_callgrind::custom_format::cachegrind_format all_metrics',
    ],
    22,
    ['rust_iai_callgrind::custom_format::cachegrind_format all_metrics', 'instructions', 1],
  ],
  [
    'callgrind-all.txt',
    [
      'rust_iai_callgrind::custom_format::callgrind_format all_with_wb',
      'rust_iai_callgrind::custom_format::callgrind_format all_with_cachuse',
    ],
    34,
    ['rust_iai_callgrind::custom_format::callgrind_format all_with_cachuse', 'instructions', 1],
  ],
  [
    'callgrind-ll-hits.txt',
    [
      'rust_iai_callgrind::custom_format::callgrind_format ll_hits',
      'rust_iai_callgrind::custom_format::callgrind_format ll_hits_mixed',
    ],
    2,
    ['rust_iai_callgrind::custom_format::callgrind_format ll_hits_mixed', 'll-hits', 2],
  ],
  [
    'callgrind-mixed-order.txt',
    [
      'rust_iai_callgrind::custom_format::callgrind_format mixed_1',
      'rust_iai_callgrind::custom_format::callgrind_format mixed_2',
    ],
    3,
    ['rust_iai_callgrind::custom_format::callgrind_format mixed_2', 'dr', 2],
  ],
  [
    'delta.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'delta_with_inf.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'dhat-then-callgrind.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    14,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'total-bytes', 26294939],
  ],
  [
    'drd.txt',
    [
      'rust_iai_callgrind::custom_format::drd_format just_errors',
      'rust_iai_callgrind::custom_format::drd_format metrics_mixed',
      'rust_iai_callgrind::custom_format::drd_format all_metrics',
    ],
    4,
    ['rust_iai_callgrind::custom_format::drd_format all_metrics', 'drd-errors', 1],
  ],
  [
    'helgrind.txt',
    [
      'rust_iai_callgrind::custom_format::helgrind_format just_errors',
      'rust_iai_callgrind::custom_format::helgrind_format metrics_mixed',
      'rust_iai_callgrind::custom_format::helgrind_format all_metrics',
    ],
    4,
    ['rust_iai_callgrind::custom_format::helgrind_format all_metrics', 'helgrind-errors', 1],
  ],
  [
    'json_multiple_benchmarks.txt',
    [
      'play_game::bench_play_game_group::bench_play_game_100::first_id',
      'play_game::bench_play_game_group::bench_play_game_100::second_id',
    ],
    4,
    ['play_game::bench_play_game_group::bench_play_game_100::second_id', 'memcheck-contexts', 0],
  ],
  [
    'json_multiple_tools.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    3,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_no_id_no_details.txt',
    ['play_game::bench_play_game_group::bench_play_game_100'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100', 'd1-miss-rate', 0.1],
  ],
  [
    'json_one_cachegrind_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    26,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'bc', 0],
  ],
  [
    'json_one_callgrind_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    37,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'accost1', 0],
  ],
  [
    'json_one_callgrind_diff.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_one_callgrind_no_diff_new.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_one_dhat_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    13,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'at-t-end-blocks', 0],
  ],
  [
    'json_one_drd_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    4,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'drd-contexts', 0],
  ],
  [
    'json_one_helgrind_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    4,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'helgrind-contexts', 0],
  ],
  [
    'json_one_memcheck_all_metrics.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    4,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'memcheck-contexts', 0],
  ],
  [
    'json_pretty_mixed_foreign_ndjson.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_pretty_mixed_foreign_pretty_and_ndjson.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_pretty_mixed_ndjson_two_callgrind.txt',
    [
      'play_game::bench_play_game_group::bench_play_game_100::first',
      'play_game::bench_play_game_group::bench_play_game_100::second',
    ],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::second', 'd1-miss-rate', 0.2],
  ],
  [
    'json_pretty_one_callgrind.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_pretty_one_callgrind_indented.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'json_pretty_two_callgrind.txt',
    [
      'play_game::bench_play_game_group::bench_play_game_100::first',
      'play_game::bench_play_game_group::bench_play_game_100::second',
    ],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::second', 'd1-miss-rate', 0.2],
  ],
  [
    'json_truncated_pretty_then_ndjson.txt',
    ['play_game::bench_play_game_group::bench_play_game_100::some_id'],
    2,
    ['play_game::bench_play_game_group::bench_play_game_100::some_id', 'd1-miss-rate', 0.1],
  ],
  [
    'memcheck.txt',
    [
      'rust_iai_callgrind::custom_format::memcheck_format just_errors',
      'rust_iai_callgrind::custom_format::memcheck_format metrics_mixed',
      'rust_iai_callgrind::custom_format::memcheck_format all_metrics',
    ],
    4,
    ['rust_iai_callgrind::custom_format::memcheck_format all_metrics', 'memcheck-errors', 1],
  ],
  [
    'name_on_multiple_lines.txt',
    [
      'rust_iai_callgrind::bench::multiple_lines id:string with two\nlines',
      'rust_iai_callgrind::bench::multiple_lines id:string with multiple\nlines\nand one more',
    ],
    6,
    ['rust_iai_callgrind::bench::multiple_lines id:string with multiple\nlines\nand one more', 'instructions', 7],
  ],
  [
    'name_on_multiple_lines_mixed.txt',
    [
      'rust_iai_callgrind::bench::multiple_lines id:first with one line',
      'rust_iai_callgrind::bench::multiple_lines id:two\nlines',
      'rust_iai_callgrind::bench::multiple_lines id:last with one line',
    ],
    6,
    ['rust_iai_callgrind::bench::multiple_lines id:last with one line', 'instructions', 13],
  ],
  [
    'with-dhat-and-global-bus-events.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    15,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'with-dhat.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    14,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'with-ge.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    7,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'with-gungraun-summary.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'with-summary-and-regressions.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'without-cachesim.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    1,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
  [
    'without-optional-metrics.txt',
    [
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10',
      'rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30',
    ],
    6,
    ['rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci long:30', 'instructions', 26214734],
  ],
];

describe('the Gungraun (Iai-Callgrind) adapter', () => {
  const gungraun = (file: string, adapter: AdapterName = 'rust_gungraun') =>
    parseWithAdapter(adapter, read(`rust/gungraun/${file}`), {});

  it.each(GUNGRAUN_TABLE)('%s', (file, names, measures, [benchmark, measure, value]) => {
    const results = gungraun(file);
    expect([...(results?.keys() ?? [])]).toEqual(names);
    expect(results?.get(benchmark)?.size).toBe(measures);
    expect(results?.get(benchmark)?.get(measure)?.value).toBe(value);
    expect([...(parseWithAdapter('magic', read(`rust/gungraun/${file}`), {})?.keys() ?? [])]).toEqual(names);
  });

  it('names measures the same from terminal output and from the JSON summary', () => {
    const measures = (file: string) => new Set([...(gungraun(file)?.values() ?? [])].flatMap((m) => [...m.keys()]));
    const terminal = measures('callgrind-all.txt');
    const json = measures('json_one_callgrind_all_metrics.txt');
    expect([...terminal].filter((slug) => !json.has(slug))).toEqual(['l2-hits']);
    expect([...json].filter((slug) => !terminal.has(slug))).toEqual(['ll-hits']);
    const first = gungraun('callgrind-all.txt')?.get('rust_iai_callgrind::custom_format::callgrind_format all_with_wb');
    expect(first?.get('instructions')?.value).toBe(1);
    expect(first?.get('total-read-write')?.value).toBe(21);
    expect(first?.get('global-bus-events')?.value).toBe(26);
    expect(first?.get('i1-miss-rate')?.value).toBe(10);
    const memcheck = gungraun('memcheck.txt')?.get('rust_iai_callgrind::custom_format::memcheck_format metrics_mixed');
    expect(Object.fromEntries([...(memcheck ?? [])].map(([slug, metric]) => [slug, metric.value]))).toEqual({
      'memcheck-contexts': 1,
      'memcheck-suppressed-contexts': 2,
      'memcheck-suppressed-errors': 3,
      'memcheck-errors': 4,
    });
    const summary = gungraun('json_one_callgrind_all_metrics.txt')?.get(
      'play_game::bench_play_game_group::bench_play_game_100::some_id',
    );
    expect(summary?.get('instructions')?.value).toBe(1900);
    expect(summary?.get('global-bus-events')?.value).toBe(1500);
  });

  it('reads only version 6 summaries with new values, and accepts the old adapter name', () => {
    for (const file of ['json_not_v6.txt', 'json_one_callgrind_no_diff_old.txt', 'json_one_tool_without_metrics.txt']) {
      expect(gungraun(file)).toBeUndefined();
    }
    expect(gungraun('json_one_callgrind_all_metrics.txt', 'rust_gungraun_stdout')).toBeUndefined();
    expect(gungraun('with-dhat.txt', 'rust_gungraun_json')).toBeUndefined();
    expect(normalizeAdapter('rust_iai_callgrind')).toBe('rust_gungraun');
    const ansi = gungraun('ansi-escapes.txt');
    expect(
      ansi?.get('rust_iai_callgrind::bench_fibonacci_group::bench_fibonacci short:10')?.get('instructions')?.value,
    ).toBe(1734);
  });
});

describe('folding iterations', () => {
  const iteration = (value: number, lower?: number, upper?: number): AdapterResults =>
    new Map([['b', new Map([['latency', { value, lower_value: lower, upper_value: upper }]])]]);
  const runs = [iteration(3, 2, 4), iteration(1), iteration(2, 1, 3)];
  const folded = (fold: 'min' | 'max' | 'mean' | 'median') => foldIterations(runs, fold).get('b')?.get('latency');

  it.each([
    ['min', { value: 1 }],
    ['max', { value: 3, lower_value: 2, upper_value: 4 }],
    ['median', { value: 2, lower_value: 1, upper_value: 3 }],
    ['mean', { value: 2, lower_value: 4 / 3, upper_value: 8 / 3 }],
  ] as const)('%s', (fold, expected) => {
    expectMetric(folded(fold), expected);
  });

  it('divides the mean by the number of iterations even when a benchmark is missing', () => {
    const partial = foldIterations([iteration(4), new Map()], 'mean');
    expectMetric(partial.get('b')?.get('latency'), { value: 2 });
  });

  it('takes the middle pair for an even median', () => {
    expectMetric(
      foldIterations([iteration(1), iteration(3)], 'median')
        .get('b')
        ?.get('latency'),
      { value: 2 },
    );
  });
});
