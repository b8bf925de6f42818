/** Robust summaries of a sorted segment for the change-point detector. */
import { percentileOfSorted } from './sample-stats.js';

/** Consistency factor: 1.4826 · MAD estimates σ for normal data. */
const MAD_TO_SIGMA = 1.482602218505602;

/** Expected range of k standard normal values (d₂ of quality control), k = 2…5. */
const RANGE_TO_SIGMA = [Number.NaN, Number.NaN, 1.128, 1.693, 2.059, 2.326] as const;

/** Inserts `value` into the ascending array `sorted` in place. */
export function insertSorted(sorted: number[], value: number): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  sorted.splice(low, 0, value);
}

export const medianOfSorted = (sorted: readonly number[]): number => percentileOfSorted(sorted, 0.5);

/** Median absolute deviation from `center` of an ascending array, in O(n): both sides' deviations are sorted. */
export function madOfSorted(sorted: readonly number[], center: number): number {
  const n = sorted.length;
  let right = 0;
  while (right < n && (sorted[right] as number) < center) right++;
  let left = right - 1;
  const wanted = (n - 1) / 2;
  let previous = 0;
  for (let k = 0; k <= Math.ceil(wanted); k++) {
    const leftDeviation = left >= 0 ? center - (sorted[left] as number) : Number.POSITIVE_INFINITY;
    const rightDeviation = right < n ? (sorted[right] as number) - center : Number.POSITIVE_INFINITY;
    const deviation = Math.min(leftDeviation, rightDeviation);
    if (leftDeviation <= rightDeviation) left--;
    else right++;
    if (k === Math.ceil(wanted)) return k === wanted ? deviation : (previous + deviation) / 2;
    previous = deviation;
  }
  return previous;
}

/**
 * A robust σ of a short or long segment: 1.4826 · MAD from six values on; below that the MAD of a handful of values
 * is often near 0, so the range over its normal expectation (d₂) is used, which errs on the large side.
 */
export function robustSigmaOfSorted(sorted: readonly number[], center: number): number {
  const n = sorted.length;
  if (n >= 6) return MAD_TO_SIGMA * madOfSorted(sorted, center);
  if (n < 2) return 0;
  return ((sorted[n - 1] as number) - (sorted[0] as number)) / (RANGE_TO_SIGMA[n] as number);
}

/** How many values of an ascending array are ≥ `value` (above) or ≤ `value` (below). */
export function countBeyond(sorted: readonly number[], value: number, side: 1 | -1): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const inside = side === 1 ? (sorted[middle] as number) < value : (sorted[middle] as number) <= value;
    if (inside) low = middle + 1;
    else high = middle;
  }
  return side === 1 ? sorted.length - low : low;
}

/** Theil–Sen slope (median of pairwise slopes) of `values` against their index; 0 for fewer than two values. */
export function theilSenSlope(values: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) slopes.push(((values[j] as number) - (values[i] as number)) / (j - i));
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  return medianOfSorted(slopes);
}
