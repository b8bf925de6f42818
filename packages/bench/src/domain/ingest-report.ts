import { randomUUID } from 'node:crypto';
import { HttpError, uuid7 } from '@atrium/core';
import type { Selectable } from 'kysely';
import { foldIterations } from '../adapters/fold.js';
import { type AdapterName, normalizeAdapter, parseWithAdapter } from '../adapters/registry.js';
import type { AdapterResults } from '../adapters/results.js';
import { computeLimits, outlier } from '../boundary/limits.js';
import type { Model } from '../boundary/model.js';
import { createBranch, updateStartPoint, versionForReport } from '../storage/branches.js';
import { findDimension, unarchive } from '../storage/dimensions.js';
import { type MetricDetail, storedDetails } from '../storage/metric-details.js';
import { checkReportLimits, reportUsageUpsert } from '../storage/rate-limits.js';
import { type IterationRows, insertRows, iterationParts, type TableRows } from '../storage/report-rows.js';
import { type DimensionKey, getOrCreateDimensions } from '../storage/resolve-dimensions.js';
import { selectSamples } from '../storage/samples.js';
import type { ReportTable } from '../storage/schema.js';
import { findModels, findThresholdFor, insertThreshold, modelOfRow, replaceModel } from '../storage/thresholds.js';
import {
  type Branch,
  type Db,
  type Dimension,
  type Head,
  inTransaction,
  type Measure,
  type Project,
  type Version,
} from '../storage/types.js';
import { branchNameProblem, gitHashProblem, resourceNameProblem } from '../wire/names.js';
import { parseNameId, slugify } from '../wire/slug.js';
import { parseDateTime } from '../wire/time.js';
import { builtInMeasure, CUSTOM_UNITS } from './built-in-measures.js';
import { judgeChangePoints } from './change-point-check.js';
import { guardFirstReport } from './first-report-thresholds.js';
import { stripIgnoreSuffix } from './ignore-suffix.js';
import { toModel } from './model-input.js';
import type { NewReport } from './new-report.js';
import { resultsSizeProblem, resultsTextProblem } from './report-limits.js';

const badRequest = (message: string) => new HttpError(400, 'invalid_report', message);

function parseResults(adapter: AdapterName, report: NewReport): AdapterResults[] {
  const tooLong = resultsTextProblem(report.results);
  if (tooLong) throw badRequest(tooLong);
  const settings = { average: report.settings?.average ?? undefined };
  const iterations = report.results.map((input) => {
    const parsed = parseWithAdapter(adapter, input, settings);
    if (!parsed) {
      throw badRequest(
        `Failed to convert results with adapter (${adapter}). Are you sure ${adapter} is the right adapter?`,
      );
    }
    return parsed;
  });
  const tooLarge = resultsSizeProblem(iterations);
  if (tooLarge) throw badRequest(tooLarge);
  const fold = report.settings?.fold;
  return fold && iterations.length > 0 ? [foldIterations(iterations, fold)] : iterations;
}

/** A dimension named by a report body: created with `name = slug` for a slug, a generated slug for a name. */
function dimensionKey(text: string): DimensionKey {
  const id = parseNameId(text);
  const slug = id.column === 'slug' ? text : slugify(text) || randomUUID().slice(0, 8);
  return { id, create: { name: text, slug } };
}

function measureKey(text: string): DimensionKey {
  const builtIn = builtInMeasure(text);
  if (builtIn)
    return { id: { column: 'slug', value: builtIn.slug }, create: { ...builtIn, extra: { units: builtIn.units } } };
  const key = dimensionKey(text);
  return { ...key, create: { ...key.create, extra: { units: CUSTOM_UNITS } } };
}

async function branchFor(db: Db, project: Project, report: NewReport, now: number): Promise<Branch> {
  const id = parseNameId(report.branch);
  if (id.column === 'name') {
    const problem = branchNameProblem(report.branch);
    if (problem) throw badRequest(problem);
  }
  const existing = await findDimension<Branch>(db, 'branch', project.uuid, id);
  if (existing) {
    if (report.start_point) await updateStartPoint(db, existing, report.start_point, parseNameId, now);
    if (existing.archived !== null) {
      await unarchive(db, 'branch', [existing.uuid], now);
      existing.archived = null;
      existing.modified = now;
    }
    return existing;
  }
  if (id.column === 'uuid') throw new HttpError(404, 'not_found', `Branch (${id.value}) not found`);
  const key = dimensionKey(report.branch);
  return createBranch(
    db,
    { projectUuid: project.uuid, ...key.create, startPoint: report.start_point ?? undefined },
    parseNameId,
    now,
  );
}

async function applyReportThresholds(
  db: Db,
  project: Project,
  branch: Branch,
  testbed: Dimension,
  report: NewReport,
  now: number,
): Promise<void> {
  const models = Object.entries(report.thresholds?.models ?? {}).map(
    ([measure, input]) => [measure, toModel(input, measure)] as const,
  );
  const measures = await getOrCreateDimensions<Measure>(
    db,
    'measure',
    project.uuid,
    models.map(([measure]) => measureKey(measure)),
    now,
  );
  const kept = new Set<string>();
  for (const [key, model] of models) {
    const measure = measures.get(measureKey(key).id.value) as Measure;
    kept.add(measure.uuid);
    const threshold = await findThresholdFor(db, branch.uuid, testbed.uuid, measure.uuid);
    if (threshold) await replaceModel(db, threshold, model, now);
    else {
      await insertThreshold(
        db,
        {
          projectUuid: project.uuid,
          branchUuid: branch.uuid,
          testbedUuid: testbed.uuid,
          measureUuid: measure.uuid,
          model,
        },
        now,
      );
    }
  }
  if (!report.thresholds?.reset) return;
  const others = await db
    .selectFrom('threshold')
    .selectAll()
    .where('branch_uuid', '=', branch.uuid)
    .where('testbed_uuid', '=', testbed.uuid)
    .execute();
  for (const threshold of others) {
    if (!kept.has(threshold.measure_uuid)) await replaceModel(db, threshold, null, now);
  }
}

interface ActiveModel {
  thresholdUuid: string;
  modelUuid: string;
  model: Model;
}

/** The current threshold model of every measure on this branch and testbed, in one query. */
async function activeModels(db: Db, branch: Branch, testbed: Dimension): Promise<Map<string, ActiveModel>> {
  const thresholds = await db
    .selectFrom('threshold')
    .selectAll()
    .where('branch_uuid', '=', branch.uuid)
    .where('testbed_uuid', '=', testbed.uuid)
    .where('model_uuid', 'is not', null)
    .execute();
  const models = await findModels(
    db,
    thresholds.map((row) => row.model_uuid),
  );
  const active = new Map<string, ActiveModel>();
  for (const threshold of thresholds) {
    const row = models.get(threshold.model_uuid as string);
    if (row)
      active.set(threshold.measure_uuid, {
        thresholdUuid: threshold.uuid,
        modelUuid: row.uuid,
        model: modelOfRow(row),
      });
  }
  return active;
}

/** A testbed, benchmark or measure of the report's metrics, as stored. */
export interface ShownDimension {
  table: 'branch' | 'testbed' | 'benchmark' | 'measure';
  row: Dimension;
}

interface IterationContext {
  db: Db;
  project: Project;
  reportUuid: string;
  headUuid: string;
  testbedUuid: string;
  models: Map<string, ActiveModel>;
  dimensions: ReportDimensions;
  /** Rows not yet inserted: stored together, before the history is next read and at the end. */
  pending: TableRows[];
  now: number;
  shown: ShownDimension[];
  details: MetricDetail[];
}

/** The benchmarks and measures every iteration of a report names, by key id value. */
interface ReportDimensions {
  benchmarks: Map<string, Dimension>;
  measures: Map<string, Measure>;
}

/** Gets or creates the benchmarks and measures of all iterations at once. */
async function reportDimensions(
  db: Db,
  project: Project,
  iterations: readonly AdapterResults[],
  now: number,
): Promise<ReportDimensions> {
  const benchmarkKeys = new Map<string, DimensionKey>();
  const measureKeys = new Map<string, DimensionKey>();
  for (const results of iterations) {
    for (const [key, measures] of results) {
      const benchmark = dimensionKey(stripIgnoreSuffix(key).name);
      benchmarkKeys.set(benchmark.id.value, benchmark);
      for (const measure of measures.keys()) measureKeys.set(measure, measureKey(measure));
    }
  }
  return {
    benchmarks: await getOrCreateDimensions(db, 'benchmark', project.uuid, [...benchmarkKeys.values()], now),
    measures: await getOrCreateDimensions<Measure>(db, 'measure', project.uuid, [...measureKeys.values()], now),
  };
}

async function storeIteration(context: IterationContext, iteration: number, results: AdapterResults): Promise<number> {
  const { db, project, now } = context;
  const { benchmarks, measures } = context.dimensions;
  const benchmarkNames = [...results.keys()].map((key) => ({ key, ...stripIgnoreSuffix(key) }));
  const measureOf = (key: string) => measures.get(measureKey(key).id.value) as Measure;

  const rows: IterationRows = { reportBenchmarks: [], metrics: [], boundaries: [], alerts: [], changePoints: [] };
  const pending: { benchmarkUuid: string; measureUuid: string; metricUuid: string; value: number; ignored: boolean }[] =
    [];
  for (const { key, name, ignored } of benchmarkNames) {
    const benchmark = benchmarks.get(parseNameId(name).value) as Dimension;
    const reportBenchmarkUuid = uuid7();
    rows.reportBenchmarks.push({
      uuid: reportBenchmarkUuid,
      report_uuid: context.reportUuid,
      iteration,
      benchmark_uuid: benchmark.uuid,
    });
    for (const [measureName, metric] of results.get(key) ?? []) {
      const measure = measureOf(measureName);
      const metricUuid = uuid7();
      rows.metrics.push({
        uuid: metricUuid,
        report_benchmark_uuid: reportBenchmarkUuid,
        report_uuid: context.reportUuid,
        benchmark_uuid: benchmark.uuid,
        iteration,
        measure_uuid: measure.uuid,
        value: metric.value,
        lower_value: metric.lower_value ?? null,
        upper_value: metric.upper_value ?? null,
      });
      pending.push({
        benchmarkUuid: benchmark.uuid,
        measureUuid: measure.uuid,
        metricUuid,
        value: metric.value,
        ignored,
      });
    }
  }

  for (const [measureUuid, active] of context.models) {
    const tested = pending.filter((entry) => entry.measureUuid === measureUuid);
    if (tested.length === 0) continue;
    await insertRows(db, context.pending.splice(0));
    if (active.model.test === 'change_point') {
      const { reportUuid, headUuid, testbedUuid } = context;
      const scope = { ...active, projectUuid: project.uuid, reportUuid, headUuid, testbedUuid, measureUuid, now };
      await judgeChangePoints(db, scope, tested, rows);
      continue;
    }
    const samples = await selectSamples(db, {
      headUuid: context.headUuid,
      testbedUuid: context.testbedUuid,
      measureUuid,
      benchmarkUuids: [...new Set(tested.map((entry) => entry.benchmarkUuid))],
      maxSampleSize: active.model.max_sample_size,
      since: active.model.window === null ? null : now - active.model.window * 1000,
    });
    for (const entry of tested) {
      const limits = computeLimits(active.model, samples.get(entry.benchmarkUuid) ?? []);
      const boundaryUuid = uuid7();
      rows.boundaries.push({
        uuid: boundaryUuid,
        metric_uuid: entry.metricUuid,
        threshold_uuid: active.thresholdUuid,
        model_uuid: active.modelUuid,
        ...limits,
      });
      const limit = outlier(limits, entry.value);
      if (limit && !entry.ignored) {
        rows.alerts.push({
          uuid: uuid7(),
          project_uuid: project.uuid,
          boundary_uuid: boundaryUuid,
          boundary_limit: limit,
          status: 'active',
          created: now,
          modified: now,
        });
      }
    }
  }
  context.pending.push(...iterationParts(rows));
  context.details.push(...storedDetails(rows));
  return rows.metrics.length;
}

export const UNIQUE_VIOLATION = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE']);

/**
 * Concurrent reports may race to create the same branch, testbed, benchmark or version (PostgreSQL runs
 * their transactions side by side): the loser rolls back and runs again, now finding the winner's rows.
 * PostgreSQL may also break a deadlock by aborting one (a report creating a benchmark another is creating,
 * while that one waits for the head this one reset): it runs again too.
 */
const RETRIED = new Set([...UNIQUE_VIOLATION, '40P01']);

async function retryOnConflict<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || !code || !RETRIED.has(code)) throw error;
    }
  }
}

export interface IngestInput {
  project: Project;
  userUuid: string | null;
  report: NewReport;
  /** A run's idempotency key: stored with the report (unique per project). */
  idempotencyKey?: string | undefined;
  /** Daily limits per project (`plus.rateLimiting`); none when absent. */
  limits?: { reportsPerDay: number; metricsPerDay: number } | undefined;
  now?: number;
}

const countMetrics = (iterations: readonly AdapterResults[]) => {
  let count = 0;
  for (const results of iterations) for (const measures of results.values()) count += measures.size;
  return count;
};

/**
 * Stores a report in one transaction (Bencher §2.4): branch and start point, testbed, report
 * thresholds, version, then every iteration with boundaries and alerts computed from the history
 * before it. Results are parsed first, so a report that fails validation stores nothing.
 */
/**
 * A stored report: its row, its version, its branch, testbed, benchmarks and measures, and its metrics (how
 * many, and their details), as stored: the answer is rendered without reading them back.
 */
export interface IngestedReport {
  report: Selectable<ReportTable>;
  version: Version;
  head: Head;
  shown: ShownDimension[];
  details: MetricDetail[];
  metrics: number;
}

export async function ingestReport(db: Db, input: IngestInput): Promise<IngestedReport> {
  const { project, report } = input;
  const now = input.now ?? Date.now();
  const startTime = parseDateTime(report.start_time);
  const endTime = parseDateTime(report.end_time);
  if (startTime === undefined || endTime === undefined)
    throw badRequest('start_time and end_time must be RFC 3339 date-times');
  if (endTime < startTime) throw badRequest('end_time must not be before start_time');
  const hash = report.hash ? report.hash.toLowerCase() : undefined;
  if (hash && gitHashProblem(hash)) throw badRequest(gitHashProblem(hash) as string);
  const testbedProblem =
    parseNameId(report.testbed).column === 'name' ? resourceNameProblem(report.testbed, 'testbed') : undefined;
  if (testbedProblem) throw badRequest(testbedProblem);
  const adapter = normalizeAdapter(report.settings?.adapter ?? 'magic');
  if (!adapter) throw badRequest(`unknown adapter '${String(report.settings?.adapter).slice(0, 32)}'`);
  const iterations = parseResults(adapter, report);
  if (report.start_point?.max_versions === 0) throw badRequest('start_point.max_versions must be at least 1');

  return retryOnConflict(() =>
    inTransaction(db, async (trx) => {
      if (input.limits) await checkReportLimits(trx, project.uuid, countMetrics(iterations), input.limits, now);
      const branch = await branchFor(trx, project, report, now);
      const testbeds = await getOrCreateDimensions(trx, 'testbed', project.uuid, [dimensionKey(report.testbed)], now);
      const testbed = testbeds.get(parseNameId(report.testbed).value) as Dimension;
      await applyReportThresholds(trx, project, branch, testbed, report, now);
      // A reset keeps the pair to the report's own thresholds: no defaults then.
      if (!report.thresholds?.reset) await guardFirstReport(trx, project.uuid, branch, testbed, now);
      const headUuid = branch.head_uuid as string;
      const models = await activeModels(trx, branch, testbed);
      const dimensions = await reportDimensions(trx, project, iterations, now);
      // From here to the commit, other reports on this head wait (PostgreSQL): read what can be read before.
      const { version, head, rows: versionRows } = await versionForReport(trx, project.uuid, headUuid, hash);
      const reportUuid = uuid7();
      const row: Selectable<ReportTable> = {
        uuid: reportUuid,
        project_uuid: project.uuid,
        user_uuid: input.userUuid,
        head_uuid: headUuid,
        version_uuid: version.uuid,
        testbed_uuid: testbed.uuid,
        adapter,
        start_time: startTime,
        end_time: endTime,
        created: now,
        idempotency_key: input.idempotencyKey ?? null,
        metric_count: countMetrics(iterations),
      };
      const context: IterationContext = {
        db: trx,
        project,
        reportUuid,
        headUuid,
        testbedUuid: testbed.uuid,
        models,
        dimensions,
        pending: [...versionRows, { table: 'report', rows: [row] }],
        now,
        shown: [
          { table: 'branch', row: branch },
          { table: 'testbed', row: testbed },
          ...[...dimensions.benchmarks.values()].map((row) => ({ table: 'benchmark' as const, row })),
          ...[...dimensions.measures.values()].map((row) => ({ table: 'measure' as const, row })),
        ],
        details: [],
      };
      let metrics = 0;
      for (const [iteration, results] of iterations.entries())
        metrics += await storeIteration(context, iteration, results);
      await insertRows(trx, context.pending, reportUsageUpsert(trx, project.uuid, row.metric_count, now));
      return { report: row, version, head, shown: context.shown, details: context.details, metrics };
    }),
  );
}
