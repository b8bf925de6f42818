import type { IterationRows } from './report-rows.js';
import type { Db } from './types.js';

/** One metric with its report benchmark, boundary and alert (left-joined), as responses need them. */
export interface MetricDetail {
  report_uuid: string;
  iteration: number;
  benchmark_uuid: string;
  measure_uuid: string;
  metric_uuid: string;
  value: number;
  lower_value: number | null;
  upper_value: number | null;
  threshold_uuid: string | null;
  model_uuid: string | null;
  baseline: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
  alert_uuid: string | null;
  boundary_limit: 'lower' | 'upper' | null;
  status: 'active' | 'dismissed' | 'silenced' | null;
  alert_created: number | null;
  alert_modified: number | null;
}

type Where = 'report' | 'metric' | 'alert';

/** A metric carries its report, iteration and benchmark (migration 0011): a report's are one index range. */
function detailQuery(db: Db) {
  return db
    .selectFrom('metric as m')
    .leftJoin('boundary as b', 'b.metric_uuid', 'm.uuid')
    .leftJoin('alert as a', 'a.boundary_uuid', 'b.uuid')
    .select([
      'm.report_uuid',
      'm.iteration',
      'm.benchmark_uuid',
      'm.measure_uuid',
      'm.uuid as metric_uuid',
      'm.value',
      'm.lower_value',
      'm.upper_value',
      'b.threshold_uuid',
      'b.model_uuid',
      'b.baseline',
      'b.lower_limit',
      'b.upper_limit',
      'a.uuid as alert_uuid',
      'a.boundary_limit',
      'a.status',
      'a.created as alert_created',
      'a.modified as alert_modified',
    ]);
}

/** Details of every metric of some reports, one metric, or one alert's metric. */
export async function metricDetails(db: Db, where: Where, uuids: readonly string[]): Promise<MetricDetail[]> {
  if (uuids.length === 0) return [];
  const query = detailQuery(db);
  const filtered =
    where === 'report'
      ? query.where('m.report_uuid', 'in', uuids)
      : where === 'metric'
        ? query.where('m.uuid', 'in', uuids)
        : query.where('a.uuid', 'in', uuids);
  return (await filtered.execute()) as unknown as MetricDetail[];
}

/** The details of the rows a report has just stored, as `metricDetails` would read them back. */
export function storedDetails(rows: IterationRows): MetricDetail[] {
  const boundaries = new Map(rows.boundaries.map((boundary) => [boundary.metric_uuid, boundary]));
  const alerts = new Map(rows.alerts.map((alert) => [alert.boundary_uuid, alert]));
  return rows.metrics.map((metric) => {
    const boundary = boundaries.get(metric.uuid);
    const alert = boundary ? alerts.get(boundary.uuid) : undefined;
    return {
      report_uuid: metric.report_uuid,
      iteration: metric.iteration,
      benchmark_uuid: metric.benchmark_uuid,
      measure_uuid: metric.measure_uuid,
      metric_uuid: metric.uuid,
      value: metric.value,
      lower_value: metric.lower_value ?? null,
      upper_value: metric.upper_value ?? null,
      threshold_uuid: boundary?.threshold_uuid ?? null,
      model_uuid: boundary?.model_uuid ?? null,
      baseline: boundary?.baseline ?? null,
      lower_limit: boundary?.lower_limit ?? null,
      upper_limit: boundary?.upper_limit ?? null,
      alert_uuid: alert?.uuid ?? null,
      boundary_limit: alert?.boundary_limit ?? null,
      status: alert?.status ?? null,
      alert_created: alert?.created ?? null,
      alert_modified: alert?.modified ?? null,
    };
  });
}
