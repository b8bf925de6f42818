import type { AdapterMetric, AdapterResults } from './results.js';

export type Fold = 'min' | 'max' | 'mean' | 'median';

const compareOptional = (a: number | undefined, b: number | undefined): number => {
  if (a === undefined) return b === undefined ? 0 : -1;
  if (b === undefined) return 1;
  return a - b;
};

/** Bencher's metric ordering: value, then upper_value, then lower_value (a missing bound sorts first). */
const compareMetrics = (a: AdapterMetric, b: AdapterMetric): number =>
  a.value - b.value || compareOptional(a.upper_value, b.upper_value) || compareOptional(a.lower_value, b.lower_value);

/** Element-wise sum where a missing bound borrows its metric's value. */
function sumMetrics(metrics: readonly AdapterMetric[], divisor: number): AdapterMetric {
  let value = 0;
  let lower = 0;
  let upper = 0;
  let hasLower = false;
  let hasUpper = false;
  for (const metric of metrics) {
    value += metric.value;
    lower += metric.lower_value ?? metric.value;
    upper += metric.upper_value ?? metric.value;
    hasLower ||= metric.lower_value !== undefined;
    hasUpper ||= metric.upper_value !== undefined;
  }
  return {
    value: value / divisor,
    lower_value: hasLower ? lower / divisor : undefined,
    upper_value: hasUpper ? upper / divisor : undefined,
  };
}

function foldOne(metrics: AdapterMetric[], fold: Fold, iterations: number): AdapterMetric {
  const sorted = metrics.sort(compareMetrics);
  switch (fold) {
    case 'min':
      return sorted[0] as AdapterMetric;
    case 'max':
      return sorted[sorted.length - 1] as AdapterMetric;
    case 'mean':
      return sumMetrics(sorted, iterations);
    case 'median': {
      const middle = Math.floor(sorted.length / 2);
      if (sorted.length % 2 === 1) return sorted[middle] as AdapterMetric;
      return sumMetrics([sorted[middle - 1] as AdapterMetric, sorted[middle] as AdapterMetric], 2);
    }
  }
}

/** Folds every iteration into one, per benchmark and measure (mean divides by the iteration count). */
export function foldIterations(iterations: readonly AdapterResults[], fold: Fold): AdapterResults {
  const collected = new Map<string, Map<string, AdapterMetric[]>>();
  for (const results of iterations) {
    for (const [benchmark, measures] of results) {
      let byMeasure = collected.get(benchmark);
      if (!byMeasure) {
        byMeasure = new Map();
        collected.set(benchmark, byMeasure);
      }
      for (const [measure, metric] of measures) {
        const list = byMeasure.get(measure);
        if (list) list.push(metric);
        else byMeasure.set(measure, [metric]);
      }
    }
  }
  const folded: AdapterResults = new Map();
  for (const [benchmark, byMeasure] of collected) {
    const measures = new Map<string, AdapterMetric>();
    for (const [measure, metrics] of byMeasure) measures.set(measure, foldOne(metrics, fold, iterations.length));
    folded.set(benchmark, measures);
  }
  return folded;
}
