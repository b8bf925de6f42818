import type { Database } from '@atrium/core';
import { groupByPermutation, type PerfRequest } from '../domain/perf-query.js';
import { lineChartSvg, type PlotInput } from '../plot/line-chart.js';
import { renderPng } from '../plot/render-png.js';
import type { YAxisKind } from '../plot/y-axes.js';
import { type ChangePointView, changePointsOfHead } from '../storage/change-points.js';
import { findDimensionsByUuid } from '../storage/dimensions.js';
import { perfMetrics } from '../storage/perf.js';
import type { BenchDatabase } from '../storage/schema.js';
import { findModels } from '../storage/thresholds.js';
import type { Branch, Dimension, Measure, Project } from '../storage/types.js';
import { type PerfResult, type PerfView, perfJson, perfJsonBytes } from '../wire/perf-json.js';
import { ViewLoader } from './loader.js';

const inProject = <T extends Dimension>(rows: T[], project: Project, order: string[]) => {
  const byUuid = new Map(rows.filter((row) => row.project_uuid === project.uuid).map((row) => [row.uuid, row]));
  return order.flatMap((uuid) => byUuid.get(uuid) ?? []);
};

/** The asked heads that belong to their branch, each with its branch's JSON; the others are not plotted. */
async function plottedHeads(loader: ViewLoader, queried: { branch: Branch; headUuid: string }[]) {
  const plotted = [];
  for (const { branch, headUuid } of queried) {
    const head = await loader.db.selectFrom('head').selectAll().where('uuid', '=', headUuid).executeTakeFirst();
    if (head?.branch_uuid !== branch.uuid) continue;
    loader.remember('head', head);
    plotted.push({ branch: await loader.branch(branch, headUuid), headUuid });
  }
  return plotted;
}

/** Each plotted head's change points by series (testbed/benchmark/measure); none when nothing is plotted. */
async function changePointsOfSeries(
  db: Database<BenchDatabase>['db'],
  plotted: readonly { headUuid: string }[],
  uuids: { testbeds: string[]; benchmarks: string[]; measures: string[] },
  request: PerfRequest,
): Promise<Map<string, ChangePointView[]>[]> {
  if (!uuids.testbeds.length || !uuids.benchmarks.length || !uuids.measures.length) return [];
  return Promise.all(
    plotted.map(async ({ headUuid }) => {
      const bySeries = new Map<string, ChangePointView[]>();
      const rows = await changePointsOfHead(db, {
        headUuid,
        testbedUuids: uuids.testbeds,
        benchmarkUuids: uuids.benchmarks,
        measureUuids: uuids.measures,
        startTime: request.startTime,
        endTime: request.endTime,
      });
      for (const row of rows) {
        const key = `${row.testbed_uuid}/${row.benchmark_uuid}/${row.measure_uuid}`;
        bySeries.set(key, [...(bySeries.get(key) ?? []), row]);
      }
      return bySeries;
    }),
  );
}

/** Runs the perf query (§8.1): the rows of every permutation, ready for `perfJson` or `perfJsonBytes`. */
export async function queryPerf(
  database: Database<BenchDatabase>,
  project: Project,
  request: PerfRequest,
): Promise<PerfView> {
  const { db } = database;
  const { params, startTime, endTime } = request;
  const [branchRows, testbedRows, benchmarkRows, measureRows] = await Promise.all([
    findDimensionsByUuid<Branch>(db, 'branch', params.branches),
    findDimensionsByUuid(db, 'testbed', params.testbeds),
    findDimensionsByUuid(db, 'benchmark', params.benchmarks),
    findDimensionsByUuid<Measure>(db, 'measure', params.measures),
  ]);
  const branches = inProject(branchRows, project, params.branches);
  const testbeds = inProject(testbedRows, project, params.testbeds);
  const benchmarks = inProject(benchmarkRows, project, params.benchmarks);
  const measures = inProject(measureRows, project, params.measures);
  const heads = branches.map((branch) => {
    const asked = params.heads[params.branches.indexOf(branch.uuid)];
    return { branch, headUuid: asked ?? branch.head_uuid };
  });
  const queried = heads.filter((entry): entry is { branch: Branch; headUuid: string } => entry.headUuid !== null);
  const uuidsOf = (rows: Dimension[]) => rows.map((row) => row.uuid);
  const plottedUuids = { testbeds: uuidsOf(testbeds), benchmarks: uuidsOf(benchmarks), measures: uuidsOf(measures) };
  const [plotted, { reports, metrics }] = await Promise.all([
    plottedHeads(new ViewLoader(db, project), queried),
    queried.length && testbeds.length && benchmarks.length && measures.length
      ? perfMetrics(database, {
          projectUuid: project.uuid,
          headUuids: queried.map((entry) => entry.headUuid),
          testbedUuids: plottedUuids.testbeds,
          benchmarkUuids: plottedUuids.benchmarks,
          measureUuids: plottedUuids.measures,
          startTime,
          endTime,
        })
      : { reports: [], metrics: [] },
  ]);
  const reportsByUuid = new Map(reports.map((report) => [report.uuid, report]));
  const groups = groupByPermutation(
    { heads: plotted.map((entry) => entry.headUuid), ...plottedUuids },
    reports,
    metrics,
  );
  const thresholdUuids = new Set<string>();
  const modelUuids: string[] = [];
  for (const row of metrics) {
    if (row.threshold_uuid !== null) thresholdUuids.add(row.threshold_uuid);
    if (row.model_uuid !== null) modelUuids.push(row.model_uuid);
  }
  const thresholds = new Map(
    (thresholdUuids.size
      ? await db
          .selectFrom('threshold')
          .selectAll()
          .where('uuid', 'in', [...thresholdUuids])
          .execute()
      : []
    ).map((row) => [row.uuid, row]),
  );
  const models = await findModels(db, modelUuids);
  const changePoints = await changePointsOfSeries(db, plotted, plottedUuids, request);
  const results: PerfResult[] = [];
  let permutation = 0;
  for (const [h, { branch }] of plotted.entries()) {
    for (const testbed of testbeds) {
      for (const benchmark of benchmarks) {
        for (const measure of measures) {
          const rows = groups[permutation++];
          const series = changePoints[h]?.get(`${testbed.uuid}/${benchmark.uuid}/${measure.uuid}`);
          if (rows)
            results.push({ branch, testbed, benchmark, measure, rows, ...(series ? { changePoints: series } : {}) });
        }
      }
    }
  }
  return { project, startTime, endTime, results, reports: reportsByUuid, thresholds, models };
}

/** At most this many permutations are drawn in one image. */
const MAX_PLOTTED = 8;

/** A change point's shift as the plot labels it: "+30.0 %". */
const shiftLabel = (shift: number | null) =>
  shift === null ? 'change' : `${shift >= 0 ? '+' : '−'}${Math.abs(shift * 100).toFixed(1)} %`;

export function perfPlotInput(view: PerfView, title: string | undefined, yAxis: YAxisKind = 'linear'): PlotInput {
  const perf = perfJson({ ...view, results: view.results.slice(0, MAX_PLOTTED) });
  const plotted = perf.results;
  return {
    title: title ?? perf.project.name,
    yAxis,
    series: plotted.map((result) => ({
      label: `${result.branch.name} · ${result.testbed.name} · ${result.benchmark.name} · ${result.measure.name}`,
      measure: result.measure.name,
      units: result.measure.units,
      points: result.metrics.map((metric) => ({
        x: Date.parse(metric.start_time),
        y: metric.metric.value,
        lower: metric.boundary?.lower_limit ?? null,
        upper: metric.boundary?.upper_limit ?? null,
        alert: metric.alert !== null,
      })),
      changes: (result.change_points ?? []).flatMap((change) => {
        const first = result.metrics.find((metric) => metric.metric.uuid === change.to_metric);
        return first ? [{ x: Date.parse(first.start_time), label: shiftLabel(change.shift) }] : [];
      }),
    })),
  };
}

export type PerfFormat = 'json' | 'png';

/** A perf query's answer as bytes: `JsonPerf` (UTF-8) or its plot as a PNG image. */
export async function renderPerf(
  database: Database<BenchDatabase>,
  project: Project,
  request: PerfRequest,
  format: PerfFormat,
): Promise<Buffer> {
  const view = await queryPerf(database, project, request);
  return format === 'json'
    ? perfJsonBytes(view)
    : renderPng(lineChartSvg(perfPlotInput(view, request.title, request.yAxis)));
}
