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
