import { parseCSharpDotNet } from './c-sharp.js';
import { parseCppCatch2, parseCppGoogle } from './cpp.js';
import { parseDartBenchmarkHarness } from './dart.js';
import { parseGoBench } from './go.js';
import { parseGungraun, parseGungraunJson, parseGungraunStdout } from './gungraun.js';
import { parseJavaJmh } from './java.js';
import { parseJsBenchmark, parseJsTime, parseJsVitest } from './js.js';
import { parseBmf } from './json.js';
import { parsePythonAsv, parsePythonPytest } from './python.js';
import type { Adapter, AdapterResults, AdapterSettings } from './results.js';
import { parseRubyBenchmark } from './ruby.js';
import { parseRustBench, parseRustCriterion, parseRustIai } from './rust.js';
import { parseShellHyperfine } from './shell.js';

const SPECIFIC = {
  json: parseBmf,
  c_sharp_dot_net: parseCSharpDotNet,
  cpp_catch2: parseCppCatch2,
  cpp_google: parseCppGoogle,
  dart_benchmark_harness: parseDartBenchmarkHarness,
  go_bench: parseGoBench,
  java_jmh: parseJavaJmh,
  js_benchmark: parseJsBenchmark,
  js_time: parseJsTime,
  js_vitest: parseJsVitest,
  python_asv: parsePythonAsv,
  python_pytest: parsePythonPytest,
  ruby_benchmark: parseRubyBenchmark,
  rust_bench: parseRustBench,
  rust_criterion: parseRustCriterion,
  rust_iai: parseRustIai,
  rust_gungraun: parseGungraun,
  rust_gungraun_json: parseGungraunJson,
  rust_gungraun_stdout: parseGungraunStdout,
  shell_hyperfine: parseShellHyperfine,
} satisfies Record<string, Adapter>;

export type AdapterName = 'magic' | keyof typeof SPECIFIC;

/** Bencher's magic order: the first adapter that recognises the input wins. */
const MAGIC_ORDER: readonly Adapter[] = [
  parseBmf,
  parseCSharpDotNet,
  parseCppCatch2,
  parseCppGoogle,
  parseDartBenchmarkHarness,
  parseGoBench,
  parseJavaJmh,
  parseJsBenchmark,
  parseJsTime,
  parseJsVitest,
  parsePythonAsv,
  parsePythonPytest,
  parseRubyBenchmark,
  parseRustBench,
  parseRustCriterion,
  parseRustIai,
  parseGungraun,
  parseShellHyperfine,
];

const parseMagic: Adapter = (input, settings) => {
  for (const adapter of MAGIC_ORDER) {
    const results = adapter(input, settings);
    if (results) return results;
  }
  return undefined;
};

/** Language-level names of old clients, still accepted and read as `magic`. */
const DEPRECATED = new Set(['rust', 'cpp', 'go', 'java', 'c_sharp', 'js', 'python', 'ruby', 'shell', 'dart']);

export const ADAPTER_NAMES: readonly AdapterName[] = ['magic', ...(Object.keys(SPECIFIC) as (keyof typeof SPECIFIC)[])];

/** The stored name of an adapter given by a client, or undefined when unknown. */
export function normalizeAdapter(name: string): AdapterName | undefined {
  if (DEPRECATED.has(name)) return 'magic';
  if (name === 'rust_iai_callgrind') return 'rust_gungraun';
  return (ADAPTER_NAMES as readonly string[]).includes(name) ? (name as AdapterName) : undefined;
}

export function parseWithAdapter(
  name: AdapterName,
  input: string,
  settings: AdapterSettings,
): AdapterResults | undefined {
  return name === 'magic' ? parseMagic(input, settings) : SPECIFIC[name](input, settings);
}
