import type { Selectable } from 'kysely';
import type { MetricDetail } from '../storage/metric-details.js';
import type { ReportTable } from '../storage/schema.js';
import { jsonChangePoint } from '../wire/change-point-json.js';
import { jsonBoundary, jsonMetric, jsonProject, jsonPubUser, jsonThresholdModel } from '../wire/json.js';
import { toDateTime } from '../wire/time.js';
import type { ViewLoader } from './loader.js';

export type ReportRow = Selectable<ReportTable>;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** `JsonAlert` for an alerting metric. */
export async function alertJson(loader: ViewLoader, detail: MetricDetail, reportCreated?: number) {
  const threshold = await loader.thresholdRow(detail.threshold_uuid as string);
  const [benchmark, thresholdJson] = await Promise.all([
    loader.benchmark(detail.benchmark_uuid),
    loader.threshold(threshold, detail.model_uuid),
  ]);
  const changePoint =
    thresholdJson.model?.test === 'change_point' ? await loader.changePointJudgedAt(detail.metric_uuid) : undefined;
  return {
    uuid: detail.alert_uuid as string,
    report: detail.report_uuid,
    iteration: detail.iteration,
    benchmark,
    metric: jsonMetric({ ...detail, uuid: detail.metric_uuid }),
    threshold: thresholdJson,
    boundary: jsonBoundary(detail),
    limit: detail.boundary_limit,
    status: detail.status,
    created: toDateTime(reportCreated ?? (detail.alert_created as number)),
    modified: toDateTime(detail.alert_modified as number),
    ...(changePoint ? { change_point: jsonChangePoint(changePoint) } : {}),
  };
}

/** The measure entry of a report result: metric, threshold (with the model then current) and boundary. */
async function measureEntry(loader: ViewLoader, detail: MetricDetail) {
  const threshold = detail.threshold_uuid ? await loader.thresholdRow(detail.threshold_uuid) : undefined;
  const model = threshold ? await loader.model(detail.model_uuid) : undefined;
  return {
    measure: await loader.measure(detail.measure_uuid),
    metric: jsonMetric({ ...detail, uuid: detail.metric_uuid }),
    threshold: threshold ? jsonThresholdModel(threshold, model) : null,
    boundary: threshold ? jsonBoundary(detail) : null,
  };
}

/**
 * The measures of the report that no threshold model judged (Bencher's "No Threshold found"): a report on them
 * never raises an alert. Not in Bencher's `JsonReport`; its clients ignore the extra key.
 */
async function unguardedMeasures(loader: ViewLoader, details: readonly MetricDetail[]) {
  const uuids = new Set(
    details.filter((detail) => detail.threshold_uuid === null).map((detail) => detail.measure_uuid),
  );
  const measures = await Promise.all([...uuids].map((uuid) => loader.measure(uuid)));
  return measures.sort(byName);
}

/** A report's results: per iteration, per benchmark (by name), its measures (by name). */
function resultsJson(loader: ViewLoader, ordered: [number, Map<string, MetricDetail[]>][]) {
  return Promise.all(
    ordered.map(async ([iteration, benchmarks]) => {
      const entries = await Promise.all(
        [...benchmarks.entries()].map(async ([benchmarkUuid, metrics]) => {
          const benchmark = await loader.benchmark(benchmarkUuid);
          const measures = await Promise.all(metrics.map((detail) => measureEntry(loader, detail)));
          measures.sort((a, b) => byName(a.measure, b.measure));
          return { iteration, benchmark, measures };
        }),
      );
      return entries.sort((a, b) => byName(a.benchmark, b.benchmark));
    }),
  );
}

/** A report's alerts, by iteration then benchmark name. */
async function alertsJson(loader: ViewLoader, details: readonly MetricDetail[], reportCreated: number) {
  const alerting = details.filter((detail) => detail.alert_uuid !== null);
  const alerts = await Promise.all(alerting.map((detail) => alertJson(loader, detail, reportCreated)));
  return alerts.sort((a, b) => a.iteration - b.iteration || byName(a.benchmark, b.benchmark));
}

/**
 * `JsonReport` (§2.5); `expand` false leaves out results and alerts but keeps the counts. A list preloads
 * its reports' rows (`ViewLoader.preloadReports`, `preloadDetails`) so that each is read once.
 */
export async function reportJson(
  loader: ViewLoader,
  report: ReportRow,
  details: readonly MetricDetail[],
  expand: boolean,
) {
  const [head, user] = await Promise.all([loader.head(report.head_uuid), loader.user(report.user_uuid)]);
  const [branch, testbed] = await Promise.all([
    loader.branch(head.branch_uuid, report.head_uuid, report.version_uuid),
    loader.testbed(report.testbed_uuid),
  ]);
  const iterations = new Map<number, Map<string, MetricDetail[]>>();
  for (const detail of details) {
    let benchmarks = iterations.get(detail.iteration);
    if (!benchmarks) {
      benchmarks = new Map();
      iterations.set(detail.iteration, benchmarks);
    }
    const list = benchmarks.get(detail.benchmark_uuid);
    if (list) list.push(detail);
    else benchmarks.set(detail.benchmark_uuid, [detail]);
  }
  const ordered = [...iterations.entries()].sort(([a], [b]) => a - b);
  const counts = {
    results: ordered.map(([, benchmarks]) => ({
      benchmarks: benchmarks.size,
      measures: new Set([...benchmarks.values()].flat().map((detail) => detail.measure_uuid)).size,
    })),
    alerts: {
      total: details.filter((detail) => detail.alert_uuid !== null).length,
      active: details.filter((detail) => detail.status === 'active').length,
    },
  };
  const expanded = expand
    ? {
        results: await resultsJson(loader, ordered),
        alerts: await alertsJson(loader, details, report.created),
      }
    : {};
  return {
    uuid: report.uuid,
    user: user ? jsonPubUser(user) : null,
    project: jsonProject(loader.project),
    branch,
    testbed,
    start_time: toDateTime(report.start_time),
    end_time: toDateTime(report.end_time),
    adapter: report.adapter,
    ...expanded,
    counts,
    no_threshold: await unguardedMeasures(loader, details),
    created: toDateTime(report.created),
  };
}
