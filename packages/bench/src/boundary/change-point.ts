/**
 * Change-point detection for the `change_point` threshold model (an Atrium extension of Bencher's models).
 * INTERFACE AGREED BETWEEN THE DETECTOR AND THE INTEGRATION: keep these signatures; the body is the detector's.
 *
 * Method: an online robust two-sample test on the newest split points of one regime. For each split that leaves
 * MIN_NEW…MAX_NEW values in the new segment, the shift is the difference of the two segments' Huber locations and
 * z = shift / √(1.05 · (σ²/n₁ + σ₂²/n₂)), σ the old regime's winsorised scale and σ₂ the new segment's, shrunk
 * towards σ and never below it. The best split is a change when z clears a Student-t level (n₁ − 1 d.f.) of the
 * confidence, Bonferroni-corrected over the splits, and three gates pass: almost every new value is beyond the
 * midpoint of the two locations (one spike or band flip is not a regime), the new location is beyond 90 % of the
 * old values (bimodal noise keeps values of its other band in the old regime), and, when the old regime has a
 * significant Theil–Sen trend, the new values still stand off the extrapolated trend line (slow drift does not).
 */
import { countBeyond, insertSorted, medianOfSorted, robustSigmaOfSorted, theilSenSlope } from './change-point-stats.js';
import { standardNormalInverseCdf } from './distributions.js';

export interface ChangePointOptions {
  /** The model's boundary: the confidence in [0.5, 1) that a change is real (higher: fewer, surer changes). */
  confidence: number;
  /** Fewest values (old regime plus new) before anything is judged: the model's min_sample_size, or a default. */
  minSampleSize: number;
  /**
   * Values of the regime(s) before values[0], oldest first. Used only for the noise scale of a young regime
   * (pooled with its own), never as part of a segment: a regime of 20 values barely knows its noise.
   */
  earlier?: readonly number[];
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

/** Fewest values of the old regime for its scale to mean anything. */
const MIN_OLD = 8;
/** The new segment's length range: a change is judged on its 4th to 7th value, then it is old news. */
const MIN_NEW = 4;
const MAX_NEW = 7;
/** 1 − confidence is the false-change rate over this many reports of unchanged noise (before the gates). */
const REPORTS_PER_CONFIDENCE = 10;
/** Huber locations clip values this many σ from the segment's median. */
const CLIP_SIGMAS = 3;
/** Variance of a Huber location (c = 3σ) relative to a mean, for normal data, rounded up. */
const HUBER_EFFICIENCY = 1.05;
/** Winsorising deviations at 2.5 MAD-σ keeps spikes out of σ; E[min(Z², 2.5²)] rescales it for normal data. */
const WINSOR_SIGMAS = 2.5;
const WINSOR_CONSISTENCY = 0.97756;
/** Weight, in values, of the old σ in the new segment's σ: four values barely know their own spread. */
const PRIOR_WEIGHT = 3;
/** New values allowed on the old side of the midpoint: one per five (a spike in a real step). */
const STRAYS_PER_VALUE = 0.2;
/** Largest share of old values at or beyond the new location. */
const MAX_OVERLAP = 0.1;
/** Smallest shift, in old σ, that counts (labelled regressions are ≥ 2.5σ). */
const MIN_EFFECT = 1.5;
/** The old regime's trend is tested from this many values on, and removed when its t exceeds MIN_SLOPE_T. */
const MIN_TREND = 10;
const MIN_SLOPE_T = 2;
/** A regime shorter than this borrows the rest of its noise estimate from the earlier values. */
const POOLED_SIZE = 40;
/** Scales below this fraction of the level are resolution, not noise (integer counts, constant series). */
const RELATIVE_SCALE_FLOOR = 1e-4;
const MAD_TO_SIGMA = 1.482602218505602;

/** Student-t quantile with ν degrees of freedom at the normal quantile z (Cornish–Fisher, two terms). */
function studentTCritical(z: number, df: number): number {
  const z3 = z * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * df * df);
}

/** Σ min(|d|, edge)² / (k − 1) over the deviations, as a σ consistent for normal data. */
function winsorisedSigma(squaresOfClipped: number, count: number): number {
  return Math.sqrt(squaresOfClipped / (WINSOR_CONSISTENCY * Math.max(1, count - 1)));
}

/**
 * The old regime's σ: the larger of the winsorised spread around its median and the winsorised spread of successive
 * differences (÷√2). The first grows with a drift or an earlier unnoticed step; the second ignores both but not banding.
 */
function oldSigma(values: readonly number[], old: Segment): number {
  const length = old.sorted.length;
  const valueEdge = WINSOR_SIGMAS * robustSigmaOfSorted(old.sorted, old.median);
  const differenceEdge = WINSOR_SIGMAS * MAD_TO_SIGMA * medianOfSorted(old.differences);
  let valueSquares = 0;
  let differenceSquares = 0;
  for (let i = 0; i < length; i++) {
    valueSquares += Math.min(Math.abs((values[i] as number) - old.median), valueEdge) ** 2;
    if (i > 0)
      differenceSquares += Math.min(Math.abs((values[i] as number) - (values[i - 1] as number)), differenceEdge) ** 2;
  }
  return Math.max(
    winsorisedSigma(valueSquares, length),
    winsorisedSigma(differenceSquares / 2, length),
    RELATIVE_SCALE_FLOOR * Math.abs(old.median),
    Number.MIN_VALUE,
  );
}

/** One Huber step from the median: the mean of values[from, to) clipped to median ± CLIP_SIGMAS·σ. */
function huberLocation(values: readonly number[], from: number, to: number, median: number, sigma: number): number {
  const low = median - CLIP_SIGMAS * sigma;
  const high = median + CLIP_SIGMAS * sigma;
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.min(high, Math.max(low, values[i] as number));
  return sum / (to - from);
}

/** The old segment, kept sorted as it grows: its values and the absolute differences of successive values. */
interface Segment {
  sorted: number[];
  differences: number[];
  median: number;
}

const sortedNumbers = (values: readonly number[]): number[] => Array.from(Float64Array.from(values).sort());

interface Split {
  index: number;
  z: number;
  before: number;
  after: number;
  sigma: number;
}

/** The noise scale learnt from the values before the regime, and how many values it rests on. */
interface EarlierNoise {
  sigma: number;
  count: number;
}

/**
 * The earlier values' σ from successive differences only (÷√2, winsorised): they may span several regimes, and a
 * step between them is one large difference, clipped, where it would inflate a spread around their median.
 */
function earlierNoise(earlier: readonly number[] | undefined): EarlierNoise | undefined {
  if (earlier === undefined || earlier.length < MIN_OLD || !earlier.every(Number.isFinite)) return undefined;
  const differences: number[] = [];
  for (let i = 1; i < earlier.length; i++) {
    differences.push(Math.abs((earlier[i] as number) - (earlier[i - 1] as number)));
  }
  const sorted = sortedNumbers(differences);
  const edge = WINSOR_SIGMAS * MAD_TO_SIGMA * medianOfSorted(sorted);
  let squares = 0;
  for (const difference of differences) squares += Math.min(difference, edge) ** 2;
  return { sigma: winsorisedSigma(squares / 2, earlier.length), count: earlier.length };
}

/**
 * The old segment's σ and its degrees of freedom: a young regime (fewer than POOLED_SIZE values) pools its own
 * variance with the earlier values', weighted by size, up to POOLED_SIZE values in all.
 */
function scaleOf(values: readonly number[], old: Segment, earlier: EarlierNoise | undefined) {
  const n1 = old.sorted.length;
  const own = oldSigma(values, old);
  const borrowed = earlier === undefined ? 0 : Math.min(earlier.count, Math.max(0, POOLED_SIZE - n1));
  if (borrowed === 0) return { sigma: own, df: n1 - 1 };
  const pooled = (n1 * own ** 2 + borrowed * (earlier as EarlierNoise).sigma ** 2) / (n1 + borrowed);
  return { sigma: Math.max(Math.sqrt(pooled), RELATIVE_SCALE_FLOOR * Math.abs(old.median)), df: n1 + borrowed - 2 };
}

/** The split at `index` when its z clears `critical` and every gate passes, else undefined. */
function judge(
  values: readonly number[],
  index: number,
  old: Segment,
  critical: number,
  earlier: EarlierNoise | undefined,
): Split | undefined {
  const n = values.length;
  const n1 = index;
  const n2 = n - index;
  const oldMedian = old.median;
  const { sigma, df } = scaleOf(values, old, earlier);
  const fresh = sortedNumbers(values.slice(index));
  const freshMedian = medianOfSorted(fresh);
  const before = huberLocation(values, 0, index, oldMedian, sigma);
  const after = huberLocation(values, index, n, freshMedian, sigma);
  const difference = after - before;
  if (Math.abs(difference) < MIN_EFFECT * sigma) return undefined;
  const ownVariance = robustSigmaOfSorted(fresh, freshMedian) ** 2;
  const freshVariance = Math.max(
    sigma ** 2,
    (PRIOR_WEIGHT * sigma ** 2 + (n2 - 1) * ownVariance) / (PRIOR_WEIGHT + n2 - 1),
  );
  const z = difference / Math.sqrt(HUBER_EFFICIENCY * (sigma ** 2 / n1 + freshVariance / n2));
  if (Math.abs(z) < studentTCritical(critical, df)) return undefined;
  const side = difference > 0 ? 1 : -1;
  if (countBeyond(old.sorted, after, side) > MAX_OVERLAP * n1) return undefined;
  const midpoint = before + difference / 2;
  const strayAt = (i: number) => ((values[i] as number) - midpoint) * side <= 0;
  // The new regime starts with a value of its own and ends with the newest.
  if (strayAt(index) || strayAt(n - 1)) return undefined;
  let strays = 0;
  for (let i = index + 1; i < n - 1; i++) if (strayAt(i)) strays++;
  if (strays > Math.floor(n2 * STRAYS_PER_VALUE)) return undefined;
  return { index, z, before: oldMedian, after: freshMedian, sigma };
}

/**
 * Whether the new values stand off the old regime's trend line, when the old regime has a trend: a drift, or an
 * earlier step too small to be reported, shows as a slope and explains the new values without a change.
 */
function beyondTrend(values: readonly number[], split: Split, critical: number): boolean {
  const n1 = split.index;
  if (n1 < MIN_TREND) return true;
  const old = values.slice(0, n1);
  const slope = theilSenSlope(old);
  const residuals = sortedNumbers(old.map((value, i) => value - slope * i));
  const intercept = medianOfSorted(residuals);
  const residualEdge = WINSOR_SIGMAS * robustSigmaOfSorted(residuals, intercept);
  let squares = 0;
  for (const residual of residuals) squares += Math.min(Math.abs(residual - intercept), residualEdge) ** 2;
  const sigma = Math.max(winsorisedSigma(squares, n1), Number.MIN_VALUE);
  const sxx = (n1 * (n1 * n1 - 1)) / 12;
  if (Math.abs(slope) < MIN_SLOPE_T * (sigma / Math.sqrt(sxx))) return true;
  const fresh = values.slice(n1).map((value, i) => value - slope * (n1 + i) - intercept);
  const n2 = fresh.length;
  const sorted = sortedNumbers(fresh);
  const offset = huberLocation(fresh, 0, n2, medianOfSorted(sorted), sigma);
  const distance = n1 + (n2 - 1) / 2 - (n1 - 1) / 2;
  const z = offset / (sigma * Math.sqrt(HUBER_EFFICIENCY * (1 / n2 + 1 / n1 + (distance * distance) / sxx)));
  return z * Math.sign(split.z) >= studentTCritical(critical, n1 - 1);
}

/** The split with the largest |z| among those that pass. */
function bestSplit(values: readonly number[], critical: number, earlier: EarlierNoise | undefined): Split | undefined {
  const n = values.length;
  const first = Math.max(MIN_OLD, n - MAX_NEW);
  const differences: number[] = [];
  for (let i = 1; i < first; i++) differences.push(Math.abs((values[i] as number) - (values[i - 1] as number)));
  const old: Segment = {
    sorted: sortedNumbers(values.slice(0, first)),
    differences: sortedNumbers(differences),
    median: 0,
  };
  let best: Split | undefined;
  for (let index = first; index <= n - MIN_NEW; index++) {
    if (index > first) {
      insertSorted(old.sorted, values[index - 1] as number);
      insertSorted(old.differences, Math.abs((values[index - 1] as number) - (values[index - 2] as number)));
    }
    old.median = medianOfSorted(old.sorted);
    const split = judge(values, index, old, critical, earlier);
    if (split !== undefined && (best === undefined || Math.abs(split.z) > Math.abs(best.z))) best = split;
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
  const splits = n - Math.max(MIN_OLD, n - MAX_NEW) - MIN_NEW + 1;
  const falseRate = (1 - options.confidence) / REPORTS_PER_CONFIDENCE;
  const critical = standardNormalInverseCdf(1 - falseRate / (2 * splits));
  const best = bestSplit(values, critical, earlierNoise(options.earlier));
  if (best === undefined || !beyondTrend(values, best, critical)) return undefined;
  const { before, after } = best;
  const infinite = after > before ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return {
    index: best.index,
    before,
    after,
    shift: before === 0 ? infinite : (after - before) / Math.abs(before),
    direction: best.z > 0 ? 'increase' : 'decrease',
    score: Math.abs(best.z),
  };
}
