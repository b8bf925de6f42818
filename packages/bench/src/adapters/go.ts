import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty } from './results.js';
import { lines, NUMBER, nanosecondsPer, parseNumber, TIME_UNIT } from './units.js';

const GO_BENCH = new RegExp(`^(\\S+)\\s+(\\d+)\\s+(${NUMBER})\\s+(${TIME_UNIT})/op(?:\\s+.*)?$`);

/** `go test -bench`: `BenchmarkFib10-8  5604217  210.2 ns/op [extra metrics]`. */
export const parseGoBench: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = GO_BENCH.exec(line.trimEnd());
    if (!match) continue;
    const value = parseNumber(match[3] as string);
    if (value === undefined) continue;
    addMetric(results, match[1] as string, LATENCY, { value: value * (nanosecondsPer(match[4] as string) as number) });
  }
  return nonEmpty(results);
};
