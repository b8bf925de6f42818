import type { FastifyInstance } from 'fastify';
import { type PerfQueryInput, parsePerfParams } from '../domain/perf-query.js';
import { lineChartSvg, type PlotInput } from '../plot/line-chart.js';
import { renderPng } from '../plot/render-png.js';
import { findDimensionsByUuid } from '../storage/dimensions.js';
import { type PerfRow, perfMetrics } from '../storage/perf.js';
import { findModels } from '../storage/thresholds.js';
import type { Branch, Dimension, Measure, ModelRow, Project, Threshold } from '../storage/types.js';
import { ViewLoader } from '../views/loader.js';
import { jsonBoundary, jsonProject, jsonThresholdModel } from '../wire/json.js';
import { toDateTime } from '../wire/time.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { badRequest } from './problems.js';
import { pathParams } from './schemas.js';

type PerfQuerystring = PerfQueryInput & { start_time?: number; end_time?: number; title?: string };

export const perfQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    branches: { type: 'string', maxLength: 65536 },
    heads: { type: 'string', maxLength: 65536 },
    testbeds: { type: 'string', maxLength: 65536 },
    specs: { type: 'string', maxLength: 65536 },
    benchmarks: { type: 'string', maxLength: 65536 },
    measures: { type: 'string', maxLength: 65536 },
    start_time: { type: 'integer' },
    end_time: { type: 'integer' },
    title: { type: 'string', maxLength: 256 },
  },
};

const inProject = <T extends Dimension>(rows: T[], project: Project, order: string[]) => {
  const byUuid = new Map(rows.filter((row) => row.project_uuid === project.uuid).map((row) => [row.uuid, row]));
  return order.flatMap((uuid) => byUuid.get(uuid) ?? []);
};

/** Runs the perf query (§8.1) and returns `JsonPerf`. */
export async function queryPerf(context: BenchContext, project: Project, query: PerfQuerystring) {
  const { db } = context.database;
  const params = parsePerfParams(query);
  if (typeof params === 'string') throw badRequest(params);
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
  const startTime = query.start_time;
  const endTime = query.end_time;
  const rows =
    queried.length && testbeds.length && benchmarks.length && measures.length
      ? await perfMetrics(db, {
          headUuids: queried.map((entry) => entry.headUuid),
          testbedUuids: testbeds.map((row) => row.uuid),
          benchmarkUuids: benchmarks.map((row) => row.uuid),
          measureUuids: measures.map((row) => row.uuid),
          startTime,
          endTime,
        })
      : [];
  const groups = new Map<string, PerfRow[]>();
  for (const row of rows) {
    const key = `${row.head_uuid}/${row.testbed_uuid}/${row.benchmark_uuid}/${row.measure_uuid}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const thresholdUuids = [...new Set(rows.flatMap((row) => (row.threshold_uuid ? [row.threshold_uuid] : [])))];
  const thresholds = new Map(
    (thresholdUuids.length
      ? await db.selectFrom('threshold').selectAll().where('uuid', 'in', thresholdUuids).execute()
      : []
    ).map((row) => [row.uuid, row]),
  );
  const models = await findModels(
    db,
    rows.map((row) => row.model_uuid),
  );
  const dateTime = dateTimeCache();
  const loader = new ViewLoader(db, project);
  for (const row of testbeds) loader.remember('testbed', row);
  for (const row of benchmarks) loader.remember('benchmark', row);
  for (const row of measures) loader.remember('measure', row);
  const results = [];
  for (const { branch, headUuid } of queried) {
    const headRow = await db.selectFrom('head').selectAll().where('uuid', '=', headUuid).executeTakeFirst();
    if (headRow?.branch_uuid !== branch.uuid) continue;
    for (const testbed of testbeds) {
      for (const benchmark of benchmarks) {
        for (const measure of measures) {
          const metrics = groups.get(`${headUuid}/${testbed.uuid}/${benchmark.uuid}/${measure.uuid}`);
          if (!metrics) continue;
          results.push({
            branch: await loader.branch(branch, headUuid),
            testbed: await loader.testbed(testbed.uuid),
            benchmark: await loader.benchmark(benchmark.uuid),
            measure: await loader.measure(measure.uuid),
            metrics: metrics.map((row) => perfMetricJson(row, thresholds, models, dateTime)),
          });
        }
      }
    }
  }
  return {
    project: jsonProject(project),
    start_time: startTime === undefined ? null : toDateTime(startTime),
    end_time: endTime === undefined ? null : toDateTime(endTime),
    results,
  };
}

/** Formats report times once each: thousands of metrics share a handful of reports. */
function dateTimeCache(): (ms: number) => string {
  const cache = new Map<number, string>();
  return (ms) => {
    let text = cache.get(ms);
    if (text === undefined) {
      text = toDateTime(ms);
      cache.set(ms, text);
    }
    return text;
  };
}

function perfMetricJson(
  row: PerfRow,
  thresholds: Map<string, Threshold>,
  models: Map<string, ModelRow>,
  dateTime: (ms: number) => string,
) {
  const threshold = row.threshold_uuid ? thresholds.get(row.threshold_uuid) : undefined;
  return {
    report: row.report_uuid,
    iteration: row.iteration,
    start_time: dateTime(row.start_time),
    end_time: dateTime(row.end_time),
    version: { number: row.number, hash: row.hash },
    metric: { uuid: row.metric_uuid, value: row.value, lower_value: row.lower_value, upper_value: row.upper_value },
    threshold: threshold
      ? jsonThresholdModel(threshold, row.model_uuid ? models.get(row.model_uuid) : undefined)
      : null,
    boundary: threshold ? jsonBoundary(row) : null,
    alert: row.alert_uuid
      ? {
          uuid: row.alert_uuid,
          limit: row.boundary_limit,
          status: row.status,
          modified: dateTime(row.alert_modified as number),
        }
      : null,
  };
}

/** At most this many permutations are drawn in one image. */
const MAX_PLOTTED = 8;

type PerfJson = Awaited<ReturnType<typeof queryPerf>>;

export function perfPlotInput(perf: PerfJson, title: string | undefined): PlotInput {
  const plotted = perf.results.slice(0, MAX_PLOTTED);
  const first = plotted[0]?.measure;
  return {
    title: title ?? perf.project.name,
    yLabel: first ? `${first.name}: ${first.units}` : '',
    series: plotted.map((result) => ({
      label: `${result.branch.name} · ${result.testbed.name} · ${result.benchmark.name} · ${result.measure.name}`,
      points: result.metrics.map((metric) => ({
        x: Date.parse(metric.start_time),
        y: metric.metric.value,
        lower: metric.boundary?.lower_limit ?? null,
        upper: metric.boundary?.upper_limit ?? null,
        alert: metric.alert !== null,
      })),
    })),
  };
}

export function registerPerfRoutes(app: FastifyInstance, context: BenchContext): void {
  app.get<{ Params: { project: string }; Querystring: PerfQuerystring }>(
    '/v0/projects/:project/perf/img',
    { schema: { params: pathParams('project'), querystring: perfQuerySchema } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const perf = await queryPerf(context, project, request.query);
      const png = renderPng(lineChartSvg(perfPlotInput(perf, request.query.title)));
      return reply.type('image/png').header('cache-control', 'private, max-age=0, no-cache').send(png);
    },
  );

  app.get<{ Params: { project: string }; Querystring: PerfQuerystring }>(
    '/v0/projects/:project/perf',
    { schema: { params: pathParams('project'), querystring: perfQuerySchema } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      return queryPerf(context, project, request.query);
    },
  );
}
