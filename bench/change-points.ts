// Change-point detection (issue 30): a seeded labelled corpus submitted through the API as reports, one project per
// threshold model, alerts read from the report responses and scored; then the ingestion time a change_point
// threshold adds to a 100-benchmark x 2-measure report over t_test, side by side on SQLite.
// `npm run bench -- change-points [rounds=4] [seed=30]`
import { detectChangePoint } from '../packages/bench/src/boundary/change-point.js';
import type { Model } from '../packages/bench/src/boundary/model.js';
import { bmfReport, startBenchService } from './lib/bench-service.js';
import { type CorpusSeries, changePointCorpus } from './lib/change-point-corpus.js';
import { type CorpusScore, replayChangePoint, replayModel, scoreCorpus } from './lib/change-point-score.js';
import { median } from './lib/load.js';
import type { BenchReport } from './lib/report.js';

type Test = Model['test'] | 'change_point';

interface Contender {
  test: Test;
  /** The boundary for both sides (an upper-only threshold for the improvement class). */
  boundary: number;
}

/** Bencher's usual settings: 0.99 one-sided for the CDF tests, ±10 % for percentage, 3 IQRs for the IQR tests. */
const CONTENDERS: Contender[] = [
  { test: 'change_point', boundary: 0.99 },
  { test: 't_test', boundary: 0.99 },
  { test: 'z_score', boundary: 0.99 },
  { test: 'log_normal', boundary: 0.99 },
  { test: 'percentage', boundary: 0.1 },
  { test: 'iqr', boundary: 3 },
  { test: 'delta_iqr', boundary: 3 },
];

const MAX_SAMPLE_SIZE = 64;
/** The both-sided measure, and the upper-only one that the improvement class reports under. */
const MEASURE = { both: 'latency', upper: 'latency-upper-only' } as const;

const thresholdModels = ({ test, boundary }: Contender) => ({
  [MEASURE.both]: { test, max_sample_size: MAX_SAMPLE_SIZE, lower_boundary: boundary, upper_boundary: boundary },
  [MEASURE.upper]: { test, max_sample_size: MAX_SAMPLE_SIZE, upper_boundary: boundary },
});

const benchmarkName = (index: number) => `corpus::series_${String(index).padStart(3, '0')}`;

function reportBody(corpus: readonly CorpusSeries[], i: number) {
  const results: Record<string, Record<string, { value: number }>> = {};
  corpus.forEach((series, index) => {
    const value = series.values[i];
    if (value !== undefined) results[benchmarkName(index)] = { [MEASURE[series.sides]]: { value } };
  });
  const time = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    branch: 'main',
    testbed: 'ci-runner',
    hash: (i + 1).toString(16).padStart(40, '0'),
    start_time: time,
    end_time: time,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
  };
}

interface AlertJson {
  benchmark: { name: string };
}

/** Submits the corpus report by report into one project per contender; the alerting report indices per series. */
async function alertsThroughApi(corpus: readonly CorpusSeries[]) {
  const service = await startBenchService('sqlite');
  const byContender = new Map<Test, Map<CorpusSeries, number[]>>();
  try {
    const length = Math.max(...corpus.map((series) => series.values.length));
    for (const contender of CONTENDERS) {
      const slug = `corpus-${contender.test.replace('_', '-')}`;
      await service.post('/v0/organizations/bench-runner/projects', { name: slug, slug });
      const alerts = new Map<CorpusSeries, number[]>(corpus.map((series) => [series, []]));
      for (let i = 0; i < length; i++) {
        const body = reportBody(corpus, i);
        const report = (await service.post(
          `/v0/projects/${slug}/reports`,
          i === 0 ? { ...body, thresholds: { models: thresholdModels(contender) } } : body,
        )) as { alerts: AlertJson[] };
        for (const alert of report.alerts) {
          const index = Number(alert.benchmark.name.slice('corpus::series_'.length));
          alerts.get(corpus[index] as CorpusSeries)?.push(i);
        }
      }
      byContender.set(contender.test, alerts);
    }
  } finally {
    await service.close();
  }
  return byContender;
}

const BENCHMARKS = 100;
const MEASURES = ['latency', 'throughput'];

/** Median ingestion time of a 100 x 2 report under each model, alternating reports between two projects. */
async function ingestionTimes(reports: number) {
  const service = await startBenchService('sqlite');
  try {
    const models = {
      change_point: { test: 'change_point', max_sample_size: MAX_SAMPLE_SIZE, upper_boundary: 0.99 },
      t_test: { test: 't_test', max_sample_size: MAX_SAMPLE_SIZE, upper_boundary: 0.99 },
    };
    const times: Record<string, number[]> = { change_point: [], t_test: [] };
    for (const [test, model] of Object.entries(models)) {
      await service.post('/v0/organizations/bench-runner/projects', { name: test, slug: test.replace('_', '-') });
      const thresholds = { models: { latency: model, throughput: model } };
      await service.post(`/v0/projects/${test.replace('_', '-')}/reports`, {
        ...bmfReport(0, BENCHMARKS, MEASURES),
        thresholds,
      });
    }
    // A full window of history first, so every report judges 64 values per metric.
    for (let second = 1; second < MAX_SAMPLE_SIZE + reports; second++) {
      for (const test of Object.keys(models)) {
        const t0 = performance.now();
        await service.post(`/v0/projects/${test.replace('_', '-')}/reports`, bmfReport(second, BENCHMARKS, MEASURES));
        if (second >= MAX_SAMPLE_SIZE) times[test]?.push(performance.now() - t0);
      }
    }
    return { changePoint: median(times.change_point ?? []), tTest: median(times.t_test ?? []) };
  } finally {
    await service.close();
  }
}

/** Detector time alone for one report's worth: 200 calls on 65 values (the newest of each corpus series). */
function detectorTime(corpus: readonly CorpusSeries[]): number {
  const windows = Array.from({ length: 200 }, (_, k) => {
    const values = (corpus[k % corpus.length] as CorpusSeries).values;
    return values.slice(values.length - (MAX_SAMPLE_SIZE + 1));
  });
  const runs: number[] = [];
  for (let run = 0; run < 30; run++) {
    const t0 = performance.now();
    for (const window of windows) detectChangePoint(window, { confidence: 0.99, minSampleSize: 2 });
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const row = (label: string, via: string, score: CorpusScore) => ({
  model: label,
  via,
  precision: score.precision,
  recall: score.recall,
  F1: score.f1,
  'TP/FP/FN': `${score.truePositives}/${score.falsePositives}/${score.falseNegatives}`,
  'false/1000 no-change': score.falsePer1000NoChange,
  'median delay': Number.isNaN(score.medianDelay) ? '' : score.medianDelay,
});

const label = ({ test, boundary }: Contender) => `${test} ${boundary}`;

function offlineAlerts(contender: Contender, series: CorpusSeries): number[] {
  if (contender.test === 'change_point') {
    return replayChangePoint(series, { confidence: contender.boundary, minSampleSize: 2, maxSampleSize: 64 });
  }
  return replayModel(series, {
    test: contender.test,
    min_sample_size: null,
    max_sample_size: MAX_SAMPLE_SIZE,
    window: null,
    lower_boundary: contender.boundary,
    upper_boundary: contender.boundary,
  });
}

/** The offline replay on four seeds: how much the score depends on the corpus draw. */
const SPREAD_SEEDS = [30, 7, 99, 123];

export default async function changePoints(args: string[]): Promise<BenchReport> {
  const rounds = Number(args[0] ?? 4);
  const seed = Number(args[1] ?? 30);
  const corpus = changePointCorpus(seed, rounds);
  const reports = corpus.reduce((sum, series) => sum + series.values.length, 0);
  const api = await alertsThroughApi(corpus);
  const rows = CONTENDERS.map((contender) =>
    row(
      label(contender),
      'API',
      scoreCorpus(corpus, (series) => api.get(contender.test)?.get(series) ?? []),
    ),
  );
  const offline = CONTENDERS.map((contender) =>
    row(
      label(contender),
      'replay',
      scoreCorpus(corpus, (series) => offlineAlerts(contender, series)),
    ),
  );
  const spread = SPREAD_SEEDS.map((s) => {
    const draw = changePointCorpus(s, 4);
    return {
      seed: s,
      ...row(
        'change_point 0.99',
        'replay',
        scoreCorpus(draw, (x) => offlineAlerts(CONTENDERS[0] as Contender, x)),
      ),
    };
  });
  const best = Math.max(...rows.slice(1).map((r) => r.F1));
  const ingestion = await ingestionTimes(20);
  const cp = rows[0] as ReturnType<typeof row>;
  return {
    title: `Change-point detection on a seeded labelled corpus (seed ${seed}, ${corpus.length} series, ${reports} reports), through the API on SQLite`,
    columns: ['model', 'via', 'precision', 'recall', 'F1', 'TP/FP/FN', 'false/1000 no-change', 'median delay'],
    rows: [...rows, ...offline],
    notes: [
      'scoring (issue 30): labelled changes are mean shifts ≥ 2.5σ; an alert on report i is a true positive when c ≤ i ≤ c+5 (first such alert); an alert within 30 reports after a smaller shift is neither; every other alert is false',
      'both boundaries on every class except "improvement under an upper-only threshold" (upper only); max_sample_size 64; static left out: one threshold per measure cannot fit levels from 1 µs to 1 ms',
      `change_point F1 ${cp.F1.toFixed(3)} vs best of Bencher's models ${best.toFixed(3)} (+${(cp.F1 - best).toFixed(3)})`,
      `replay, 4 rounds per seed: ${spread.map((s) => `seed ${s.seed} F1 ${s.F1.toFixed(3)}, ${s['false/1000 no-change'].toFixed(2)} false/1000`).join('; ')}`,
      `ingestion of a 100 benchmarks x 2 measures report with 64 values of history (median of 20, SQLite): change_point ${ingestion.changePoint.toFixed(1)} ms, t_test ${ingestion.tTest.toFixed(1)} ms, added ${(ingestion.changePoint - ingestion.tTest).toFixed(1)} ms`,
      `detector alone, 200 calls on 65 values (median of 30): ${detectorTime(corpus).toFixed(1)} ms`,
    ],
    data: { spread, ingestion },
  };
}
