import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, spread } from './results.js';
import { isNumber, isObject, parseJson } from './units.js';

const MEMORY_MEASURES = [
  ['BytesAllocatedPerOperation', 'allocated'],
  ['Gen0Collections', 'gen0-collects'],
  ['Gen1Collections', 'gen1-collects'],
  ['Gen2Collections', 'gen2-collects'],
  ['TotalOperations', 'total-operations'],
] as const;

/** BenchmarkDotNet JSON exporter; values are already nanoseconds. */
export const parseCSharpDotNet: Adapter = (input, { average = 'mean' }) => {
  const document = parseJson(input);
  if (!isObject(document) || !isObject(document.HostEnvironmentInfo) || !Array.isArray(document.Benchmarks)) {
    return undefined;
  }
  const results: AdapterResults = new Map();
  for (const benchmark of document.Benchmarks) {
    if (!isObject(benchmark) || typeof benchmark.Method !== 'string' || !isObject(benchmark.Statistics))
      return undefined;
    const { Namespace: namespace, Method: method, Statistics: stats, Memory: memory } = benchmark;
    const name = typeof namespace === 'string' ? `${namespace}.${method}` : method;
    const [center, deviation] =
      average === 'mean' ? [stats.Mean, stats.StandardDeviation] : [stats.Median, stats.InterquartileRange];
    if (!isNumber(center) || !isNumber(deviation)) return undefined;
    addMetric(results, name, LATENCY, spread(center, deviation));
    if (!isObject(memory)) continue;
    for (const [field, measure] of MEMORY_MEASURES) {
      const value = memory[field];
      if (isNumber(value)) addMetric(results, name, measure, { value });
    }
  }
  return nonEmpty(results);
};
