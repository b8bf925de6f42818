import { type AlertChangePoint, changePointText } from './change-point-text.js';

/** The parts of `JsonReport` the client renders. */
export interface Dim {
  uuid: string;
  name: string;
  slug: string;
}
export interface ReportMeasure {
  measure: Dim & { units: string };
  metric: { uuid: string; value: number; lower_value: number | null; upper_value: number | null };
  threshold: { uuid: string; model: { test: string } | null } | null;
  boundary: { baseline: number | null; lower_limit: number | null; upper_limit: number | null } | null;
}
export interface ReportResult {
  iteration: number;
  benchmark: Dim;
  measures: ReportMeasure[];
}
export interface ReportAlert {
  uuid: string;
  iteration: number;
  limit: 'lower' | 'upper';
  status: string;
  benchmark: Dim;
  metric: { value: number };
  boundary: { baseline: number | null; lower_limit: number | null; upper_limit: number | null };
  threshold: { measure: Dim & { units: string } };
  /** Atrium's extension on alerts of `change_point` thresholds. */
  change_point?: AlertChangePoint;
}
export interface Report {
  uuid: string;
  project: Dim & { organization: string; visibility: string; claimed: string | null };
  branch: Dim & { head: { uuid: string } };
  testbed: Dim;
  adapter: string;
  start_time: string;
  end_time: string;
  results?: ReportResult[][];
  alerts?: ReportAlert[];
}

/** How far back result links look (Bencher's DEFAULT_REPORT_HISTORY: 30 days). */
const HISTORY_MS = 30 * 24 * 3600 * 1000;

/** Console links of a report: public projects under `/perf`, private ones under `/console/projects`. */
export class ReportLinks {
  readonly project: string;

  constructor(
    readonly console: string,
    readonly report: Report,
    publicLinks = false,
  ) {
    const base = console.replace(/\/$/, '');
    const visible = publicLinks || report.project.visibility === 'public';
    this.project = visible
      ? `${base}/perf/${report.project.slug}`
      : `${base}/console/projects/${report.project.slug}/perf`;
  }

  get reportUrl(): string {
    return `${this.project.replace(/\/perf$/, '')}/reports/${this.report.uuid}`;
  }

  perfUrl(benchmark: Dim, measure: Dim, limit?: 'lower' | 'upper'): string {
    const r = this.report;
    const end = Date.parse(r.end_time);
    const params = new URLSearchParams({
      branches: r.branch.uuid,
      heads: r.branch.head.uuid,
      testbeds: r.testbed.uuid,
      benchmarks: benchmark.uuid,
      measures: measure.uuid,
      start_time: String(Date.parse(r.start_time) - HISTORY_MS),
      end_time: String(end),
      report: r.uuid,
    });
    if (limit) params.set(`${limit}_boundary`, 'true');
    return `${this.project}?${params}`;
  }

  /** The console's form for a new threshold on this report's branch and testbed and on `measure`. */
  addThresholdUrl(measure: Dim): string {
    const r = this.report;
    const params = new URLSearchParams({ branch: r.branch.slug, testbed: r.testbed.slug, measure: measure.slug });
    return `${this.console.replace(/\/$/, '')}/console/projects/${r.project.slug}/thresholds/add?${params}`;
  }

  get claimUrl(): string | undefined {
    const base = this.console.replace(/\/$/, '');
    return this.report.project.claimed === null
      ? `${base}/auth/signup?claim=${this.report.project.organization}`
      : undefined;
  }
}

/** The measures of the report that no threshold model judged. */
export function unguardedMeasures(report: Report): Dim[] {
  const found = new Map<string, Dim>();
  for (const result of (report.results ?? []).flat()) {
    for (const m of result.measures) if (!m.threshold?.model) found.set(m.measure.uuid, m.measure);
  }
  return [...found.values()];
}

/** Bencher's "No Threshold found" warning, with the console form and the command that add one. */
function noThresholdLines(links: ReportLinks): string[] {
  const { report } = links;
  const measures = unguardedMeasures(report);
  if (measures.length === 0) return [];
  const on = `branch ${report.branch.name}, testbed ${report.testbed.name}`;
  const lines = ['', `WARNING: No Threshold found for ${on}: these measures will never raise an alert.`];
  for (const measure of measures) {
    lines.push(
      `- ${measure.name}: add one at ${links.addThresholdUrl(measure)}`,
      `  or: atrium bench threshold create ${report.project.slug} --branch ${report.branch.slug} --testbed ${report.testbed.slug} --measure ${measure.slug} --test t_test`,
    );
  }
  return lines;
}

/** `--format human`: report link, one link per benchmark and measure, alert links, claim link. */
export function humanReport(links: ReportLinks): string {
  const { report } = links;
  const lines = [`View report: ${links.reportUrl}`, ''];
  const iterations = report.results ?? [];
  const results = iterations.flat();
  if (results.length === 0) lines.push('WARNING: No benchmarks found!');
  else {
    lines.push('View results:');
    iterations.forEach((iteration, i) => {
      if (iterations.length > 1) lines.push(`Iteration ${i}:`);
      for (const result of iteration) {
        for (const m of result.measures) {
          lines.push(`- ${result.benchmark.name} (${m.measure.name}): ${links.perfUrl(result.benchmark, m.measure)}`);
        }
      }
    });
  }
  const alerts = report.alerts ?? [];
  if (alerts.length > 0) {
    lines.push('', 'View alerts:');
    for (const alert of alerts) {
      const measure = alert.threshold.measure;
      lines.push(
        `- ${alert.benchmark.name} (${measure.name}): ${links.perfUrl(alert.benchmark, measure, alert.limit)}`,
      );
      if (alert.change_point) lines.push(`  ${changePointText(alert.change_point)}`);
    }
  }
  lines.push(...noThresholdLines(links));
  if (links.claimUrl) lines.push('', `Claim this project: ${links.claimUrl}`);
  return `${lines.join('\n')}\n`;
}
