import { type Adapter, type AdapterMetric, type AdapterResults, addMetric } from './results.js';
import { isNumber, isObject, parseJson } from './units.js';

function metricOf(leaf: unknown): AdapterMetric | undefined {
  if (!isObject(leaf) || !isNumber(leaf.value)) return undefined;
  const metric: AdapterMetric = { value: leaf.value };
  for (const bound of ['lower_value', 'upper_value'] as const) {
    const value = leaf[bound];
    if (value === undefined || value === null) continue;
    if (!isNumber(value)) return undefined;
    metric[bound] = value;
  }
  return metric;
}

/** The Bencher Metric Format: `{benchmark: {measure: {value, lower_value?, upper_value?}}}`; `{}` is valid. */
export const parseBmf: Adapter = (input) => {
  const document = parseJson(input);
  if (!isObject(document)) return undefined;
  const results: AdapterResults = new Map();
  for (const [benchmark, measures] of Object.entries(document)) {
    if (!isObject(measures) || benchmark.length === 0) return undefined;
    results.set(benchmark, new Map());
    for (const [measure, leaf] of Object.entries(measures)) {
      const metric = metricOf(leaf);
      if (!metric || measure.length === 0) return undefined;
      addMetric(results, benchmark, measure, metric);
    }
  }
  return results;
};
