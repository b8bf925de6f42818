import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, spread } from './results.js';
import { isNumber, isObject, parseJson } from './units.js';

const SECOND = 1e9;

/** hyperfine `--export-json`: mean ± stddev, or median within [min, max]; seconds to nanoseconds. */
export const parseShellHyperfine: Adapter = (input, { average = 'mean' }) => {
  const document = parseJson(input);
  if (!isObject(document) || !Array.isArray(document.results)) return undefined;
  const results: AdapterResults = new Map();
  for (const result of document.results) {
    if (!isObject(result) || typeof result.command !== 'string') return undefined;
    const { mean, stddev, median, min, max } = result;
    if (![mean, median, min, max].every(isNumber) || !Array.isArray(result.exit_codes)) return undefined;
    const metric =
      average === 'median'
        ? {
            value: (median as number) * SECOND,
            lower_value: (min as number) * SECOND,
            upper_value: (max as number) * SECOND,
          }
        : isNumber(stddev)
          ? spread((mean as number) * SECOND, stddev * SECOND)
          : { value: (mean as number) * SECOND };
    addMetric(results, result.command, LATENCY, metric);
  }
  return nonEmpty(results);
};
