import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import { lines, NUMBER, parseNumber } from './units.js';

const RUN_TIME = new RegExp(`^(.+)\\(RunTime\\): (${NUMBER}) us\\.\\s*$`);

/** benchmark_harness: `Template(RunTime): 1.0 us.` */
export const parseDartBenchmarkHarness: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = RUN_TIME.exec(line);
    const value = match ? parseNumber(match[2] as string) : undefined;
    if (!match || value === undefined) continue;
    addMetric(results, match[1] as string, LATENCY, { value: value * 1000 });
  }
  return nonEmpty(results);
};
