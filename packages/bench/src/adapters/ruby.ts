import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import { lines, NUMBER, parseNumber } from './units.js';

const HEADER = /^\s+user\s+system\s+total\s+real\s*$/;
const ROW = new RegExp(`^(.*?)\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+\\(\\s*(${NUMBER})\\)\\s*$`);

/** Ruby's `Benchmark.bm`/`bmbm`: rows right after a `user system total real` header; the real time counts. */
export const parseRubyBenchmark: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  let armed = false;
  for (const line of lines(input)) {
    if (HEADER.test(line)) {
      armed = true;
      continue;
    }
    if (!armed) continue;
    const match = ROW.exec(line);
    const seconds = match ? parseNumber(match[2] as string) : undefined;
    if (!match || seconds === undefined || (match[1] as string).length === 0) {
      armed = false;
      continue;
    }
    addMetric(results, match[1] as string, LATENCY, { value: seconds * 1e9 });
  }
  return nonEmpty(results);
};
