import { uuid7 } from '@atrium/core';
import { type ChangePoint, detectChangePoint } from '../boundary/change-point.js';
import { type BoundaryLimit, computeLimits, type Limits } from '../boundary/limits.js';
import type { Model } from '../boundary/model.js';
import { type RegimePoint, selectRegimes } from '../storage/regimes.js';
import type { IterationRows } from '../storage/report-rows.js';
import type { Db } from '../storage/types.js';

/** Regime history read when the model sets no `max_sample_size`. */
export const CHANGE_POINT_MAX_SAMPLE_SIZE = 64;
/** Fewest values (history and new) given to the detector when the model sets no `min_sample_size`. */
export const CHANGE_POINT_MIN_SAMPLE_SIZE = 2;

/** A change found in a regime: the detector's answer and the metrics on either side of it. */
export interface FoundChange {
  change: ChangePoint;
  lastMetricUuid: string;
  firstMetricUuid: string;
}

/** What a `change_point` model makes of a new value after its regime's history. */
export interface ChangePointJudgement {
  limits: Limits;
  found?: FoundChange;
  alert?: BoundaryLimit;
}

const confidences = (model: Model) =>
  [model.lower_boundary, model.upper_boundary].filter((value): value is number => value !== null);

/**
 * Detects at the lowest configured confidence (any change found restarts the regime, in either direction) and
 * alerts when the change's direction has a boundary and the change holds at that boundary's confidence too.
 * The boundary row's baseline is the regime's location (its median; the old regime's on a change); a change
 * point has no per-value limits, so they stay null. `earlier`: the values before the regime (a young regime's noise).
 */
export function judgeChangePoint(
  model: Model,
  history: readonly RegimePoint[],
  newest: RegimePoint,
  earlier: readonly number[] = [],
): ChangePointJudgement {
  const minSampleSize = model.min_sample_size ?? CHANGE_POINT_MIN_SAMPLE_SIZE;
  const regime = computeLimits(
    model,
    history.map((point) => point.value),
  );
  if (regime.baseline === null) return { limits: regime };
  const values = [...history.map((point) => point.value), newest.value];
  const confidence = Math.min(...confidences(model));
  const change = detectChangePoint(values, { confidence, minSampleSize, earlier });
  if (!change || change.index < 1 || change.index >= values.length) return { limits: regime };
  const points = [...history, newest];
  const found = {
    change,
    lastMetricUuid: (points[change.index - 1] as RegimePoint).metricUuid,
    firstMetricUuid: (points[change.index] as RegimePoint).metricUuid,
  };
  const limits = { baseline: change.before, lower_limit: null, upper_limit: null };
  const side: BoundaryLimit = change.direction === 'increase' ? 'upper' : 'lower';
  const needed = side === 'upper' ? model.upper_boundary : model.lower_boundary;
  const holds =
    needed !== null &&
    (needed <= confidence ||
      detectChangePoint(values, { confidence: needed, minSampleSize, earlier })?.index === change.index);
  return holds ? { limits, found, alert: side } : { limits, found };
}

/** A metric a `change_point` threshold judges. */
export interface JudgedMetric {
  benchmarkUuid: string;
  metricUuid: string;
  value: number;
  ignored: boolean;
}

export interface ChangePointScope {
  projectUuid: string;
  reportUuid: string;
  headUuid: string;
  testbedUuid: string;
  measureUuid: string;
  thresholdUuid: string;
  modelUuid: string;
  model: Model;
  now: number;
}

/**
 * Judges every metric of one measure of an iteration under a `change_point` threshold, reading all their regimes
 * in one statement, and adds the boundaries, change points and alerts to `rows`.
 */
export async function judgeChangePoints(
  db: Db,
  scope: ChangePointScope,
  metrics: readonly JudgedMetric[],
  rows: IterationRows,
): Promise<void> {
  const { model, now } = scope;
  const regimes = await selectRegimes(db, {
    headUuid: scope.headUuid,
    testbedUuid: scope.testbedUuid,
    measureUuid: scope.measureUuid,
    benchmarkUuids: [...new Set(metrics.map((metric) => metric.benchmarkUuid))],
    maxSampleSize: model.max_sample_size ?? CHANGE_POINT_MAX_SAMPLE_SIZE,
    since: model.window === null ? null : now - model.window * 1000,
  });
  for (const metric of metrics) {
    const regime = regimes.get(metric.benchmarkUuid);
    const { limits, found, alert } = judgeChangePoint(
      model,
      regime?.points ?? [],
      { metricUuid: metric.metricUuid, value: metric.value },
      regime?.earlier,
    );
    const boundaryUuid = uuid7();
    rows.boundaries.push({
      uuid: boundaryUuid,
      metric_uuid: metric.metricUuid,
      threshold_uuid: scope.thresholdUuid,
      model_uuid: scope.modelUuid,
      ...limits,
    });
    if (found) {
      const { change } = found;
      rows.changePoints.push({
        uuid: uuid7(),
        project_uuid: scope.projectUuid,
        threshold_uuid: scope.thresholdUuid,
        model_uuid: scope.modelUuid,
        head_uuid: scope.headUuid,
        testbed_uuid: scope.testbedUuid,
        benchmark_uuid: metric.benchmarkUuid,
        measure_uuid: scope.measureUuid,
        report_uuid: scope.reportUuid,
        boundary_uuid: boundaryUuid,
        last_metric_uuid: found.lastMetricUuid,
        first_metric_uuid: found.firstMetricUuid,
        before: change.before,
        after: change.after,
        shift: Number.isFinite(change.shift) ? change.shift : null,
        direction: change.direction,
        score: change.score,
        created: now,
      });
    }
    if (alert && !metric.ignored) {
      rows.alerts.push({
        uuid: uuid7(),
        project_uuid: scope.projectUuid,
        boundary_uuid: boundaryUuid,
        boundary_limit: alert,
        status: 'active',
        created: now,
        modified: now,
      });
    }
  }
}
