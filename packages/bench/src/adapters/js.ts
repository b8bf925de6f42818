import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, spread, THROUGHPUT } from './results.js';
import { isNumber, isObject, lines, NUMBER, nanosecondsPer, parseJson, parseNumber, TIME_UNIT } from './units.js';

const BENCHMARK_JS = new RegExp(`^(.+?) x (${NUMBER}) ops/sec ±(${NUMBER})% \\((\\d+) runs? sampled\\)\\s*$`);

/** benchmark.js: `fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)`. */
export const parseJsBenchmark: Adapter = (input, { average }) => {
  if (average === 'mean') return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = BENCHMARK_JS.exec(line);
    if (!match) continue;
    const value = parseNumber(match[2] as string);
    const percent = parseNumber(match[3] as string);
    if (value === undefined || percent === undefined) continue;
    addMetric(results, match[1] as string, THROUGHPUT, spread(value, (value * percent) / 100));
  }
  return nonEmpty(results);
};

const CONSOLE_TIME = new RegExp(`^(.+): (\\d+)(${TIME_UNIT}) - timer ended\\s*$`);

/** console.time: `default: 7617ms - timer ended`. */
export const parseJsTime: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = CONSOLE_TIME.exec(line);
    if (!match) continue;
    addMetric(results, match[1] as string, LATENCY, {
      value: Number(match[2]) * (nanosecondsPer(match[3] as string) as number),
    });
  }
  return nonEmpty(results);
};

const MS = 1e6;

/** `vitest bench --outputJson`: latency from mean (or median) in ms, throughput from hz ± rme. */
export const parseJsVitest: Adapter = (input, { average = 'mean' }) => {
  const document = parseJson(input);
  if (!isObject(document) || !Array.isArray(document.files)) return undefined;
  const results: AdapterResults = new Map();
  for (const file of document.files) {
    if (!isObject(file) || !Array.isArray(file.groups)) return undefined;
    for (const group of file.groups) {
      if (!isObject(group) || typeof group.fullName !== 'string' || !Array.isArray(group.benchmarks)) return undefined;
      for (const bench of group.benchmarks) {
        if (!isObject(bench) || typeof bench.name !== 'string') return undefined;
        const { hz, mean, median, sd, rme } = bench;
        if (![hz, mean, median, sd, rme].every(isNumber)) return undefined;
        const name = group.fullName.length > 0 ? `${group.fullName} > ${bench.name}` : bench.name;
        const latency =
          average === 'mean' ? spread((mean as number) * MS, (sd as number) * MS) : { value: (median as number) * MS };
        addMetric(results, name, LATENCY, latency);
        addMetric(results, name, THROUGHPUT, spread(hz as number, ((hz as number) * (rme as number)) / 100));
      }
    }
  }
  return nonEmpty(results);
};
