/** What plot order reads of a report in scope. */
export interface RankedReport {
  uuid: string;
  number: number;
  start_time: number;
}

/** What plot order reads of a metric. */
export interface PlacedMetric {
  report_uuid: string;
  head_uuid: string;
  iteration: number;
  benchmark_uuid: string;
  measure_uuid: string;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const byRank = (a: RankedReport, b: RankedReport) =>
  a.number - b.number || a.start_time - b.start_time || compareText(a.uuid, b.uuid);

const withinReport = (a: PlacedMetric, b: PlacedMetric) =>
  a.iteration - b.iteration ||
  compareText(a.benchmark_uuid, b.benchmark_uuid) ||
  compareText(a.measure_uuid, b.measure_uuid) ||
  compareText(a.head_uuid, b.head_uuid);

/**
 * Metrics in plot order: by their report's version number, then its start time, then iteration (the
 * report, benchmark, measure and head uuids break ties, so that the order is total). The reports are few and
 * sorted; the metrics are grouped by report in that order, then each report's few are sorted, a single
 * pass when they arrive as SQLite reads them (by benchmark, then measure). Metrics of no listed report
 * are left out.
 */
export function inPlotOrder<M extends PlacedMetric>(reports: readonly RankedReport[], metrics: readonly M[]): M[] {
  const byReport = new Map<string, M[]>();
  for (const report of [...reports].sort(byRank)) if (!byReport.has(report.uuid)) byReport.set(report.uuid, []);
  for (const metric of metrics) byReport.get(metric.report_uuid)?.push(metric);
  const ordered: M[] = [];
  for (const group of byReport.values()) for (const metric of group.sort(withinReport)) ordered.push(metric);
  return ordered;
}
