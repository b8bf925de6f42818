import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import { isSingleLine, lines, NUMBER, parseNumber, tailStart } from './units.js';

const HEADER = /^\s+user\s+system\s+total\s+real\s*$/;
const ROW_TAIL = new RegExp(`\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+\\(\\s*(${NUMBER})\\)\\s*$`, 'y');

/** `^(.*?)<ROW_TAIL>`: the label and the real time, or undefined. The tail's `(` is the line's last. */
function matchRow(line: string): [string, string] | undefined {
  const start = tailStart(line, 3, line.lastIndexOf('('));
  if (start < 0) return undefined;
  ROW_TAIL.lastIndex = start;
  const match = ROW_TAIL.exec(line);
  const label = line.slice(0, start);
  return match && isSingleLine(label) ? [label, match[1] as string] : undefined;
}

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
    const row = matchRow(line);
    const seconds = row ? parseNumber(row[1]) : undefined;
    if (!row || seconds === undefined || row[0].length === 0) {
      armed = false;
      continue;
    }
    addMetric(results, row[0], LATENCY, { value: seconds * 1e9 });
  }
  return nonEmpty(results);
};
