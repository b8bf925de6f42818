/** What every adapter produces: benchmark name → measure slug → metric. */

export interface AdapterMetric {
  value: number;
  lower_value?: number | undefined;
  upper_value?: number | undefined;
}

export type AdapterResults = Map<string, Map<string, AdapterMetric>>;

export type Average = 'mean' | 'median';

export interface AdapterSettings {
  average?: Average | undefined;
}

/** Returns undefined when the input is not this tool's output (or the average is unsupported). */
export type Adapter = (input: string, settings: AdapterSettings) => AdapterResults | undefined;

/** Records one metric, the later one winning for a duplicate benchmark and measure. */
export function addMetric(results: AdapterResults, benchmark: string, measure: string, metric: AdapterMetric): void {
  let measures = results.get(benchmark);
  if (!measures) {
    measures = new Map();
    results.set(benchmark, measures);
  }
  measures.set(measure, metric);
}

export const nonEmpty = (results: AdapterResults): AdapterResults | undefined =>
  results.size > 0 ? results : undefined;

/** A metric with symmetric error bars `value ∓ spread`. */
export const spread = (value: number, deviation: number): AdapterMetric => ({
  value,
  lower_value: value - deviation,
  upper_value: value + deviation,
});

export const LATENCY = 'latency';
export const THROUGHPUT = 'throughput';
