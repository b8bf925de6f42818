/**
 * Change-point detection for the `change_point` threshold model (an Atrium extension of Bencher's models).
 * INTERFACE AGREED BETWEEN THE DETECTOR AND THE INTEGRATION: keep these signatures; the body is the detector's.
 *
 * Method: a robust two-sample scan. Every split of the regime into an old segment (≥ MIN_OLD values) and a new one
 * (≥ MIN_NEW values, ending at the newest) is scored by z = (median new − median old) / (σ · √(π/2 · (1/n₁ + 1/n₂))),
 * σ the larger of the two segments' robust scales (so a widening of the noise does not pass for a shift). The best
 * split is a change only when z clears the Bonferroni-corrected level of the confidence over all splits tried and
 * the shift is persistent and separate: at least MIN_EFFECT robust σ of the old regime, almost every new value
 * (and always the newest) beyond the midpoint of the two medians, and the new median beyond all but MAX_OVERLAP of
 * the old values (bimodal noise keeps its other band in the old segment). A drift guard removes the old segment's
 * Theil–Sen trend and asks the same questions again.
 */
import { countBeyond, insertSorted, medianOfSorted, robustSigmaOfSorted, theilSenSlope } from './change-point-stats.js';
import { standardNormalInverseCdf } from './distributions.js';

export interface ChangePointOptions {
  /** The model's boundary: the confidence in [0.5, 1) that a change is real (higher: fewer, surer changes). */
  confidence: number;
  /** Fewest values (old regime plus new) before anything is judged: the model's min_sample_size, or a default. */
  minSampleSize: number;
}

export interface ChangePoint {
  /** Index in `values` of the first value of the new regime (Otava's convention). */
  index: number;
  /** Location (median) of the old regime and of the new one. */
  before: number;
  after: number;
  /** (after − before) / |before|; ±Infinity when before is 0. */
  shift: number;
  direction: 'increase' | 'decrease';
  /** The test statistic behind the decision (larger: surer). */
  score: number;
}

/** Fewest values of the old regime and of the new one for a split to be scored. */
const MIN_OLD = 6;
const MIN_NEW = 3;
/** Smallest shift, in robust σ of the old regime, that counts as a change (labelled regressions are ≥ 2.5σ). */
const MIN_EFFECT = 1.5;
/** Largest share of old values at or beyond the new median. */
const MAX_OVERLAP = 0.05;
/** Asymptotic variance of a sample median relative to a mean, for normal data. */
const MEDIAN_EFFICIENCY = Math.PI / 2;
/** Scales below this fraction of the level are measurement resolution, not noise (integer counts, constant series). */
const RELATIVE_SCALE_FLOOR = 1e-4;
/** The old segment must be this long before its trend is trusted enough to be removed. */
const MIN_TREND_LENGTH = 10;

interface Segment {
  sorted: number[];
  median: number;
  sigma: number;
}

function segment(sorted: number[]): Segment {
  const median = medianOfSorted(sorted);
  return { sorted, median, sigma: robustSigmaOfSorted(sorted, median) };
}

/** Student-t quantile with ν degrees of freedom at the normal quantile z (Cornish–Fisher, two terms). */
function studentTCritical(z: number, df: number): number {
  const z3 = z * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * df * df);
}

/** New values tolerated on the old side of the midpoint: none up to four, then one per four more. */
const tolerated = (newLength: number): number => Math.floor((newLength - 1) / 4);

/** The z of the split at `index` when every gate passes, else undefined. */
function judge(values: readonly number[], index: number, old: Segment, fresh: Segment, critical: number) {
  const n1 = old.sorted.length;
  const n2 = fresh.sorted.length;
  const difference = fresh.median - old.median;
  if (difference === 0) return undefined;
  const floor = Math.max(RELATIVE_SCALE_FLOOR * Math.abs(old.median), Number.MIN_VALUE);
  const oldSigma = Math.max(old.sigma, floor);
  const sigma = Math.max(oldSigma, fresh.sigma);
  const z = difference / (sigma * Math.sqrt(MEDIAN_EFFICIENCY * (1 / n1 + 1 / n2)));
  if (Math.abs(z) < studentTCritical(critical, n1 - 1) || Math.abs(difference) < MIN_EFFECT * oldSigma)
    return undefined;
  const side = difference > 0 ? 1 : -1;
  if (countBeyond(old.sorted, fresh.median, side) > MAX_OVERLAP * n1) return undefined;
  const midpoint = old.median + difference / 2;
  const newest = values[values.length - 1] as number;
  if ((newest - midpoint) * side <= 0) return undefined;
  let behind = 0;
  for (let i = index; i < values.length; i++) if (((values[i] as number) - midpoint) * side <= 0) behind++;
  return behind > tolerated(n2) ? undefined : z;
}

const sortedCopy = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

function judgeSplit(values: readonly number[], index: number, critical: number): number | undefined {
  return judge(
    values,
    index,
    segment(sortedCopy(values.slice(0, index))),
    segment(sortedCopy(values.slice(index))),
    critical,
  );
}

/** The split with the largest |z| that passes every gate, scanning old segments from the left, new from the right. */
function bestSplit(values: readonly number[], critical: number): { index: number; z: number } | undefined {
  const n = values.length;
  const freshSegments: Segment[] = [];
  const freshSorted: number[] = [];
  for (let index = n - 1; index >= MIN_OLD; index--) {
    insertSorted(freshSorted, values[index] as number);
    if (n - index >= MIN_NEW) freshSegments[index] = segment([...freshSorted]);
  }
  const oldSorted = values.slice(0, MIN_OLD - 1).sort((a, b) => a - b);
  let best: { index: number; z: number } | undefined;
  for (let index = MIN_OLD; index <= n - MIN_NEW; index++) {
    insertSorted(oldSorted, values[index - 1] as number);
    const z = judge(values, index, segment(oldSorted), freshSegments[index] as Segment, critical);
    if (z !== undefined && (best === undefined || Math.abs(z) > Math.abs(best.z))) best = { index, z };
  }
  return best;
}

/**
 * The most recent significant persistent change of level in `values` (oldest first, the newest value last, all of
 * one regime's history so far: the caller starts `values` at the previous change's first value), or undefined.
 * A change is reported only when its new segment contains the newest value. Direction is not filtered here: the
 * caller records every change (so the regime restarts either way) and alerts only in the threshold's directions.
 * Pure, deterministic, O(n²) at worst for n ≤ a few hundred.
 */
export function detectChangePoint(values: readonly number[], options: ChangePointOptions): ChangePoint | undefined {
  const n = values.length;
  if (n < Math.max(options.minSampleSize, MIN_OLD + MIN_NEW)) return undefined;
  if (!values.every(Number.isFinite)) return undefined;
  const splits = n - MIN_OLD - MIN_NEW + 1;
  const critical = standardNormalInverseCdf(1 - (1 - options.confidence) / (2 * splits));
  const best = bestSplit(values, critical);
  if (best === undefined) return undefined;
  if (best.index >= MIN_TREND_LENGTH) {
    const slope = theilSenSlope(values.slice(0, best.index));
    if (slope !== 0 && judgeSplit(detrended(values, slope), best.index, critical) === undefined) return undefined;
  }
  const before = medianOfSorted(sortedCopy(values.slice(0, best.index)));
  const after = medianOfSorted(sortedCopy(values.slice(best.index)));
  return {
    index: best.index,
    before,
    after,
    shift:
      before === 0
        ? after > 0
          ? Number.POSITIVE_INFINITY
          : Number.NEGATIVE_INFINITY
        : (after - before) / Math.abs(before),
    direction: after > before ? 'increase' : 'decrease',
    score: Math.abs(best.z),
  };
}

const detrended = (values: readonly number[], slope: number): number[] => values.map((value, i) => value - slope * i);
