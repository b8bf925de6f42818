/** Descriptive statistics over a threshold's historical sample (newest value first). */

/** Arithmetic mean, or undefined when empty or not finite. */
export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const value of values) sum += value;
  const result = sum / values.length;
  return Number.isFinite(result) ? result : undefined;
}

/** Sample standard deviation (÷ n−1); undefined when n < 2 or the variance is 0. */
export function sampleStdDev(values: readonly number[], center: number): number | undefined {
  if (values.length < 2) return undefined;
  let squares = 0;
  for (const value of values) squares += (value - center) ** 2;
  const variance = squares / (values.length - 1);
  if (variance === 0 || !Number.isFinite(variance)) return undefined;
  return Math.sqrt(variance);
}

/** Linear-interpolation percentile of an ascending, non-empty array (Rust libtest's algorithm). */
export function percentileOfSorted(sorted: readonly number[], fraction: number): number {
  const n = sorted.length;
  if (n === 1) return sorted[0] as number;
  if (fraction === 1) return sorted[n - 1] as number;
  const rank = fraction * (n - 1);
  const index = Math.floor(rank);
  const low = sorted[index] as number;
  return low + ((sorted[index + 1] as number) - low) * (rank - index);
}

export interface Quartiles {
  q1: number;
  q2: number;
  q3: number;
}

export function quartiles(values: readonly number[]): Quartiles | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    q1: percentileOfSorted(sorted, 0.25),
    q2: percentileOfSorted(sorted, 0.5),
    q3: percentileOfSorted(sorted, 0.75),
  };
}

/** Quartiles of |(b − a) / a| over consecutive pairs in data order; undefined when n < 2. */
export function deltaQuartiles(values: readonly number[]): Quartiles | undefined {
  if (values.length < 2) return undefined;
  const deltas: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1] as number;
    deltas.push(Math.abs(((values[i] as number) - a) / a));
  }
  return quartiles(deltas);
}
