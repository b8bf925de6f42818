import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import {
  isNumber,
  isObject,
  isSingleLine,
  lines,
  NUMBER,
  nanosecondsPer,
  parseJson,
  parseNumber,
  TIME_UNIT,
  tailStart,
} from './units.js';

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
const FIRST = new RegExp(`\\s+(\\d+)\\s+(\\d+)\\s+${TIMED}\\s*$`, 'y');
const MEAN = new RegExp(`\\s+${TIMED}\\s+${TIMED}\\s+${TIMED}\\s*$`, 'y');

/** `^(.*?)<tail>$` for a tail of `tokens` whitespace-separated tokens: the match with the name first, or null. */
function matchAfterName(pattern: RegExp, tokens: number, line: string): string[] | null {
  const start = tailStart(line, tokens);
  if (start < 0) return null;
  const name = line.slice(0, start);
  if (!isSingleLine(name)) return null;
  pattern.lastIndex = start;
  const match = pattern.exec(line);
  return match ? [name, ...match.slice(1)] : null;
}

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
      let close = i + 1;
      while (close < all.length && close <= i + 4 && !RULE.test(all[close] as string)) close++;
      if (
        close <= i + 4 &&
        close < all.length &&
        close > i + 1 &&
        all.slice(i + 1, close).every((title) => title.trim().length > 0)
      ) {
        testCase = all
          .slice(i + 1, close)
          .map((title) => title.trim())
          .join(' ');
        i = close;
      }
      continue;
    }
    const first = matchAfterName(FIRST, 4, line);
    const mean = first ? matchAfterName(MEAN, 6, all[i + 1] ?? '') : null;
    const deviation = mean ? matchAfterName(MEAN, 6, all[i + 2] ?? '') : null;
    if (!first || !mean || !deviation || testCase === undefined) continue;
    const name = [first[0], mean[0], deviation[0]]
      .map((part) => (part as string).trim())
      .filter((part) => part.length > 0)
      .join(' ');
    const value = nanoseconds(mean[1] as string, mean[2] as string);
    const spreadNs = nanoseconds(deviation[1] as string, deviation[2] as string);
    addMetric(results, `${testCase}: ${name}`, LATENCY, {
      value,
      lower_value: value - spreadNs,
      upper_value: value + spreadNs,
    });
    i += 2;
  }
  return nonEmpty(results);
};
