import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, spread } from './results.js';
import { isNumber, isObject, lines, NUMBER, nanosecondsPer, parseJson, parseNumber, TIME_UNIT } from './units.js';

const ASV = new RegExp(`^\\[\\s*${NUMBER}%\\]\\s+·+\\s+(\\S+)\\s+(${NUMBER})±(${NUMBER})(${TIME_UNIT})\\s*$`);

/** airspeed velocity: `[ 35.00%] ··· benchmarks.TimeSuite.time_iterkeys   11.1±0.01μs`. */
export const parsePythonAsv: Adapter = (input, { average }) => {
  if (average === 'mean') return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = ASV.exec(line);
    if (!match) continue;
    const scale = nanosecondsPer(match[4] as string) as number;
    const value = parseNumber(match[2] as string);
    const range = parseNumber(match[3] as string);
    if (value === undefined || range === undefined) continue;
    addMetric(results, match[1] as string, LATENCY, spread(value * scale, range * scale));
  }
  return nonEmpty(results);
};

const SECOND = 1e9;

/** pytest-benchmark `--benchmark-json`; seconds to nanoseconds. */
export const parsePythonPytest: Adapter = (input, { average = 'mean' }) => {
  const document = parseJson(input);
  if (!isObject(document) || !isObject(document.machine_info) || !isObject(document.commit_info)) return undefined;
  if (!Array.isArray(document.benchmarks)) return undefined;
  const results: AdapterResults = new Map();
  for (const benchmark of document.benchmarks) {
    if (!isObject(benchmark) || typeof benchmark.fullname !== 'string' || !isObject(benchmark.stats)) return undefined;
    const { mean, stddev, median, iqr } = benchmark.stats;
    const [center, deviation] = average === 'mean' ? [mean, stddev] : [median, iqr];
    if (!isNumber(center) || !isNumber(deviation)) return undefined;
    addMetric(results, benchmark.fullname, LATENCY, spread(center * SECOND, deviation * SECOND));
  }
  return nonEmpty(results);
};
