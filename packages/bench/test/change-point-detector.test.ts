import { describe, expect, it } from 'vitest';
import {
  CORPUS_CLASSES,
  type CorpusSeries,
  changePointCorpus,
  corpusSeries,
} from '../../../bench/lib/change-point-corpus.js';
import { replayChangePoint, scoreCorpus } from '../../../bench/lib/change-point-score.js';
import { detectChangePoint } from '../src/boundary/change-point.js';
import { madOfSorted, theilSenSlope } from '../src/boundary/change-point-stats.js';

const OPTIONS = { confidence: 0.99, minSampleSize: 2 };
const SEEDS = [1, 2, 3, 4];

interface Found {
  /** The report that found the change, and the change's first value (both series indices). */
  report: number;
  index: number;
  direction: 'increase' | 'decrease';
}

/** Every change found replaying the series as ingestion does: the regime restarts at each change found. */
function changesOf(series: CorpusSeries): Found[] {
  const found: Found[] = [];
  let start = 0;
  for (let i = 0; i < series.values.length; i++) {
    const from = Math.max(start, i - 64);
    const change = detectChangePoint(series.values.slice(from, i + 1), OPTIONS);
    if (!change) continue;
    start = from + change.index;
    found.push({ report: i, index: start, direction: change.direction });
  }
  return found;
}

describe('change-point detector: steps are found once, within five reports, at the right place', () => {
  const cases = [
    ['step-up', '3σ'],
    ['step-up', '4σ'],
    ['step-up', '5σ'],
    ['step-down', '3σ'],
    ['step-down', '4σ'],
    ['step-down', '5σ'],
    ['two-steps', 'regression-and-fix'],
    ['step-with-outliers', '4σ, 3 % spikes'],
    ['step-with-outliers', '5σ, 3 % spikes'],
  ].flatMap(([kind, variant]) => SEEDS.map((seed) => corpusSeries(kind as string, variant as string, seed)));

  it.each(cases.map((series) => [series.name, series] as const))('%s', (_name, series) => {
    const found = changesOf(series);
    expect(found).toHaveLength(series.changes.length);
    series.changes.forEach((change, k) => {
      const hit = found[k] as Found;
      expect(hit.report).toBeGreaterThanOrEqual(change.index);
      expect(hit.report).toBeLessThanOrEqual(change.index + 5);
      expect(Math.abs(hit.index - change.index)).toBeLessThanOrEqual(2);
      expect(hit.direction).toBe(change.sigmas > 0 ? 'increase' : 'decrease');
    });
  });
});

describe('change-point detector: a young regime borrows its noise scale from the values before it', () => {
  /** Reports after the change until the regime starting at the previous change finds it (∞: not in 20). */
  function delay(series: CorpusSeries, k: number, withEarlier: boolean): number {
    const start = (series.changes[k - 1] as { index: number }).index;
    const c = (series.changes[k] as { index: number }).index;
    const earlier = withEarlier ? series.values.slice(Math.max(0, start - 64), start) : undefined;
    for (let i = start + 1; i < Math.min(series.values.length, c + 20); i++) {
      if (detectChangePoint(series.values.slice(start, i + 1), { ...OPTIONS, earlier })) return i - c;
    }
    return Number.POSITIVE_INFINITY;
  }

  it.each([
    ['up-up-up', 7, 2],
    ['up-down-up', 3, 1],
    ['down-down-up', 4, 1],
  ] as const)(
    'three-steps %s (seed %s): step %s, ~22 reports after the previous, is found within five reports only with `earlier`',
    (variant, seed, k) => {
      const series = corpusSeries('three-steps', variant, seed);
      expect(delay(series, k, false)).toBeGreaterThan(5);
      const found = delay(series, k, true);
      expect(found).toBeGreaterThanOrEqual(0);
      expect(found).toBeLessThanOrEqual(5);
    },
  );

  it('never makes the earlier values part of a segment', () => {
    const flat = Array.from({ length: 30 }, (_, i) => 100 + (i % 3));
    const earlier = Array.from({ length: 40 }, (_, i) => 500 + (i % 3));
    expect(detectChangePoint(flat, { ...OPTIONS, earlier })).toBeUndefined();
    const step = [...flat.slice(0, 20), ...Array.from({ length: 6 }, (_, i) => 200 + (i % 3))];
    expect(detectChangePoint(step, { ...OPTIONS, earlier })).toMatchObject({ before: 101, direction: 'increase' });
  });
});

describe('change-point detector: an improvement under an upper-only threshold restarts the regime without an alert', () => {
  const cases = ['−3σ', '−5σ'].flatMap((variant) =>
    SEEDS.map((seed) => corpusSeries('improvement-upper-only', variant, seed)),
  );
  it.each(cases.map((series) => [series.name, series] as const))('%s', (_name, series) => {
    expect(changesOf(series).map((found) => found.direction)).toEqual(['decrease']);
    expect(replayChangePoint(series, { ...OPTIONS, maxSampleSize: 64 })).toEqual([]);
  });
});

describe('change-point detector: nothing is found in noise, heavy tails, outliers or banding', () => {
  const kinds = ['noise-normal', 'noise-uniform', 'noise-student-t3', 'isolated-outliers', 'bimodal'];
  const cases = CORPUS_CLASSES.filter((c) => kinds.includes(c.kind)).flatMap(({ kind, variants }) =>
    variants.flatMap((variant) => SEEDS.map((seed) => corpusSeries(kind, variant, seed))),
  );
  it.each(cases.map((series) => [series.name, series] as const))('%s', (_name, series) => {
    expect(changesOf(series)).toEqual([]);
  });
});

/** Issue 30's scoring over every variant of a class drawn from seeds 1–8. */
function classScore(kind: string) {
  const variants = CORPUS_CLASSES.find((c) => c.kind === kind)?.variants ?? [];
  const series = variants.flatMap((variant) =>
    [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => corpusSeries(kind, variant, seed)),
  );
  const reports = series.reduce((sum, s) => sum + s.values.length, 0);
  const score = scoreCorpus(series, (s) => replayChangePoint(s, { ...OPTIONS, maxSampleSize: 64 }));
  return { ...score, falsePer1000: (1000 * score.falsePositives) / reports };
}

describe('change-point detector: per-class rates on seeds 1–8 (the benchmark scores the whole corpus)', () => {
  // Measured: variance changes 2.9 and drift 1.3 false changes per 1,000 reports, three steps 22 reports apart
  // found in time 0.78 of the time (1.3 false per 1,000: a young regime pools its noise with the values before it,
  // but still knows its own level from ~20 values); the bounds leave a little room.
  it.each([
    ['step-up', 0.9, 1],
    ['step-down', 0.9, 1],
    ['two-steps', 0.8, 1],
    ['three-steps', 0.7, 2],
    ['step-with-outliers', 0.9, 1],
  ] as const)('%s: recall within five reports ≥ %s, false alerts per 1,000 reports ≤ %s', (kind, recall, falses) => {
    const score = classScore(kind);
    expect(score.recall).toBeGreaterThanOrEqual(recall);
    expect(score.falsePer1000).toBeLessThanOrEqual(falses);
  });

  it.each([
    ['improvement-upper-only', 0],
    ['variance-change', 4],
    ['linear-drift', 2],
  ] as const)('%s: false alerts per 1,000 reports ≤ %s', (kind, falses) => {
    expect(classScore(kind).falsePer1000).toBeLessThanOrEqual(falses);
  });

  it('scores F1 ≥ 0.85 with ≤ 1 false alert per 1,000 no-change reports on the benchmark corpus', () => {
    const corpus = changePointCorpus(30, 2);
    const score = scoreCorpus(corpus, (s) => replayChangePoint(s, { ...OPTIONS, maxSampleSize: 64 }));
    expect(score.f1).toBeGreaterThanOrEqual(0.85);
    expect(score.falsePer1000NoChange).toBeLessThanOrEqual(1);
  });
});

describe('change-point detector: edges', () => {
  it('judges nothing below min_sample_size, below 12 values, or with a non-finite value', () => {
    const step = [...Array(20).fill(100), ...Array(6).fill(200)].map((v, i) => v + (i % 3));
    expect(detectChangePoint(step, OPTIONS)?.index).toBe(20);
    expect(detectChangePoint(step, { ...OPTIONS, minSampleSize: 27 })).toBeUndefined();
    expect(detectChangePoint(step.slice(15), OPTIONS)).toBeUndefined();
    expect(detectChangePoint([...step.slice(0, 25), Number.NaN], OPTIONS)).toBeUndefined();
  });

  it('finds a step in a constant series (zero spread) and reports its size and direction', () => {
    const change = detectChangePoint([...Array(30).fill(1000), ...Array(5).fill(900)], OPTIONS);
    expect(change).toMatchObject({ index: 30, before: 1000, after: 900, direction: 'decrease' });
    expect(change?.shift).toBeCloseTo(-0.1, 10);
  });

  it('needs more evidence at a higher confidence', () => {
    const series = corpusSeries('step-up', '3σ', 2);
    const c = (series.changes[0] as { index: number }).index;
    const at = (confidence: number) => {
      for (let i = c; i < series.values.length; i++) {
        if (detectChangePoint(series.values.slice(0, i + 1), { confidence, minSampleSize: 2 })) return i;
      }
      return Number.POSITIVE_INFINITY;
    };
    expect(at(0.9999999)).toBeGreaterThanOrEqual(at(0.99));
  });

  it('computes the median absolute deviation and the Theil–Sen slope exactly', () => {
    expect(madOfSorted([1, 2, 3, 4, 100], 3)).toBe(1);
    expect(madOfSorted([1, 2, 4, 8], 3)).toBe(1.5);
    expect(theilSenSlope([0, 2, 4, 6, 100])).toBe(2);
  });
});

describe('change-point detector: speed (the benchmark has the figures)', () => {
  it('judges 200 series of 65 values in well under 20 ms', () => {
    const windows = CORPUS_CLASSES.flatMap(({ kind, variants }) =>
      variants.map((variant) => corpusSeries(kind, variant, 9).values.slice(-65)),
    );
    const batch = Array.from({ length: 200 }, (_, k) => windows[k % windows.length] as number[]);
    const runs: number[] = [];
    for (let run = 0; run < 10; run++) {
      const t0 = performance.now();
      for (const values of batch) detectChangePoint(values, OPTIONS);
      runs.push(performance.now() - t0);
    }
    expect(Math.min(...runs)).toBeLessThan(20);
  });
});
