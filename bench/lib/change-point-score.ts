// Scoring alerts against the labelled corpus (issue 30's rule), plus an offline replay of the detectors.

import { type ChangePointOptions, detectChangePoint } from '../../packages/bench/src/boundary/change-point.js';
import { computeLimits, outlier } from '../../packages/bench/src/boundary/limits.js';
import type { Model } from '../../packages/bench/src/boundary/model.js';
import { type CorpusSeries, isLabelled, isNoChange, LABELLED_SIGMAS, type Sides } from './change-point-corpus.js';

/** An alert on report i is a true positive when a labelled change c has c ≤ i ≤ c + DELAY (the first such only). */
export const DELAY = 5;
/** An alert within this many reports after a smaller (optional) change is neither right nor wrong. */
export const OPTIONAL_WINDOW = 30;

export interface SeriesScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Delays (i − c) of the true positives. */
  delays: number[];
}

/** Scores the report indices that raised an alert on one series. */
export function scoreSeries(series: CorpusSeries, alerts: readonly number[]): SeriesScore {
  const labelled = series.changes.filter((c) => isLabelled(c, series.sides));
  const optional = series.changes.filter((c) => Math.abs(c.sigmas) < LABELLED_SIGMAS);
  const found = new Set<number>();
  const score: SeriesScore = { truePositives: 0, falsePositives: 0, falseNegatives: 0, delays: [] };
  for (const i of [...alerts].sort((a, b) => a - b)) {
    const hit = labelled.find((c) => !found.has(c.index) && c.index <= i && i <= c.index + DELAY);
    if (hit) {
      found.add(hit.index);
      score.truePositives++;
      score.delays.push(i - hit.index);
    } else if (!optional.some((c) => c.index <= i && i <= c.index + OPTIONAL_WINDOW)) {
      score.falsePositives++;
    }
  }
  score.falseNegatives = labelled.length - found.size;
  return score;
}

export interface CorpusScore {
  precision: number;
  recall: number;
  f1: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** False alerts per 1,000 reports on the series with nothing to alert on. */
  falsePer1000NoChange: number;
  noChangeReports: number;
  medianDelay: number;
  /** False positives by corpus class. */
  falseByKind: Record<string, number>;
}

/** Aggregates per-series alerts (report indices, by series name) into the corpus score. */
export function scoreCorpus(corpus: readonly CorpusSeries[], alertsOf: (series: CorpusSeries) => readonly number[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let noChangeFalse = 0;
  let noChangeReports = 0;
  const delays: number[] = [];
  const falseByKind: Record<string, number> = {};
  for (const series of corpus) {
    const score = scoreSeries(series, alertsOf(series));
    tp += score.truePositives;
    fp += score.falsePositives;
    fn += score.falseNegatives;
    delays.push(...score.delays);
    if (score.falsePositives > 0) falseByKind[series.kind] = (falseByKind[series.kind] ?? 0) + score.falsePositives;
    if (isNoChange(series)) {
      noChangeFalse += score.falsePositives;
      noChangeReports += series.values.length;
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  delays.sort((a, b) => a - b);
  const result: CorpusScore = {
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    falsePer1000NoChange: noChangeReports === 0 ? 0 : (1000 * noChangeFalse) / noChangeReports,
    noChangeReports,
    medianDelay: delays.length === 0 ? Number.NaN : (delays[Math.floor((delays.length - 1) / 2)] as number),
    falseByKind,
  };
  return result;
}

const alertsOnSide = (sides: Sides, direction: 'increase' | 'decrease') => sides === 'both' || direction === 'increase';

/**
 * Replays a series through the detector the way ingestion calls it: the regime starts at the last change found
 * (every direction restarts it), the window is its newest `maxSampleSize` values plus the new one, and an alert is
 * raised on the report when the change's direction is one the threshold watches.
 */
export function replayChangePoint(
  series: CorpusSeries,
  options: ChangePointOptions & { maxSampleSize: number },
): number[] {
  const alerts: number[] = [];
  let regimeStart = 0;
  for (let i = 0; i < series.values.length; i++) {
    const from = Math.max(regimeStart, i - options.maxSampleSize);
    // Ingestion reads the values before a change point among the newest maxSampleSize, up to maxSampleSize of them.
    const earlier = from === regimeStart ? series.values.slice(Math.max(0, from - options.maxSampleSize), from) : [];
    const change = detectChangePoint(series.values.slice(from, i + 1), { ...options, earlier });
    if (change === undefined) continue;
    regimeStart = from + change.index;
    if (alertsOnSide(series.sides, change.direction)) alerts.push(i);
  }
  return alerts;
}

/** Replays a series through one of Bencher's models: each value against the newest `max_sample_size` before it. */
export function replayModel(series: CorpusSeries, model: Model): number[] {
  const sided: Model = series.sides === 'upper' ? { ...model, lower_boundary: null } : model;
  const alerts: number[] = [];
  for (let i = 0; i < series.values.length; i++) {
    const from = model.max_sample_size === null ? 0 : Math.max(0, i - model.max_sample_size);
    const sample = series.values.slice(from, i).reverse();
    if (outlier(computeLimits(sided, sample), series.values[i] as number) !== undefined) alerts.push(i);
  }
  return alerts;
}
