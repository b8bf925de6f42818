import { METRIC_RENAMES, renameDeprecated } from '../wire/deprecated-names.js';
import { type Adapter, type AdapterMetric, type AdapterResults, addMetric } from './results.js';
import { isNumber, isObject, parseJson } from './units.js';

/** A metric leaf; the deprecated `lower_bound`/`upper_bound` are read as `lower_value`/`upper_value`. */
function metricOf(given: unknown): AdapterMetric | undefined {
  if (!isObject(given)) return undefined;
  const renamed = renameDeprecated(given, METRIC_RENAMES);
  if (!renamed.ok) return undefined;
  const leaf = renamed.value;
  if (!isNumber(leaf.value)) return undefined;
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
