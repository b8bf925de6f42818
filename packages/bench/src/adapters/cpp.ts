import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import { isNumber, isObject, lines, NUMBER, nanosecondsPer, parseJson, parseNumber, TIME_UNIT } from './units.js';

/** Google Benchmark `--benchmark_format=json`. */
export const parseCppGoogle: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const document = parseJson(input);
  if (!isObject(document) || !isObject(document.context) || !Array.isArray(document.context.caches)) return undefined;
  if (!document.context.caches.every(isObject) || !Array.isArray(document.benchmarks)) return undefined;
  const results: AdapterResults = new Map();
  for (const benchmark of document.benchmarks) {
    if (!isObject(benchmark) || typeof benchmark.name !== 'string' || !isNumber(benchmark.real_time)) return undefined;
    const scale = typeof benchmark.time_unit === 'string' ? nanosecondsPer(benchmark.time_unit) : undefined;
    if (scale === undefined) return undefined;
    addMetric(results, benchmark.name, LATENCY, { value: benchmark.real_time * scale });
  }
  return nonEmpty(results);
};

const RULE = /^-{79}\s*$/;
const TIMED = `(${NUMBER}) (${TIME_UNIT})`;
const FIRST = new RegExp(`^(.*?)\\s+(\\d+)\\s+(\\d+)\\s+${TIMED}\\s*$`);
const MEAN = new RegExp(`^(.*?)\\s+${TIMED}\\s+${TIMED}\\s+${TIMED}\\s*$`);

const nanoseconds = (value: string, unit: string) => (parseNumber(value) as number) * (nanosecondsPer(unit) as number);

/** Catch2 console output: test-case titles between rules, then three lines per benchmark. */
export const parseCppCatch2: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const results: AdapterResults = new Map();
  const all = lines(input);
  let testCase: string | undefined;
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    if (RULE.test(line)) {
      const close = all.findIndex((candidate, index) => index > i && index <= i + 4 && RULE.test(candidate));
      if (close > i + 1 && all.slice(i + 1, close).every((title) => title.trim().length > 0)) {
        testCase = all
          .slice(i + 1, close)
          .map((title) => title.trim())
          .join(' ');
        i = close;
      }
      continue;
    }
    const first = FIRST.exec(line);
    const mean = first ? MEAN.exec(all[i + 1] ?? '') : null;
    const deviation = mean ? MEAN.exec(all[i + 2] ?? '') : null;
    if (!first || !mean || !deviation || testCase === undefined) continue;
    const name = [first[1], mean[1], deviation[1]]
      .map((part) => (part as string).trim())
      .filter((part) => part.length > 0)
      .join(' ');
    const value = nanoseconds(mean[2] as string, mean[3] as string);
    const spreadNs = nanoseconds(deviation[2] as string, deviation[3] as string);
    addMetric(results, `${testCase}: ${name}`, LATENCY, {
      value,
      lower_value: value - spreadNs,
      upper_value: value + spreadNs,
    });
    i += 2;
  }
  return nonEmpty(results);
};
