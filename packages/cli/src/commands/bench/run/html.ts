import { changePointText } from './change-point-text.js';
import type { Report, ReportLinks, ReportMeasure } from './report.js';

/** GitHub rejects comment and check bodies over 65,535 characters. */
export const MAX_COMMENT = 65_535;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const number = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : Number(value.toPrecision(6)).toLocaleString('en-US');

const percent = (value: number, base: number | null | undefined) =>
  base ? ` (${(((value - base) / base) * 100).toFixed(2)}%)` : '';

export interface CommentOptions {
  /** The hidden tag that lets the client find (and update) its own comment. */
  tag: string;
  /** `--ci-no-metrics`: the alerts only, no per-benchmark table. */
  noMetrics?: boolean;
}

/**
 * The identifier of a report's comment: `--ci-id`, else branch/testbed/adapter (plus the special
 * measurements), so different runs in one pull request keep separate comments.
 */
export function commentId(report: Report, ciId: string | undefined, extra: { buildTime: boolean; fileSize: boolean }) {
  const id =
    ciId ??
    `${report.branch.slug}/${report.testbed.slug}/${report.adapter}${extra.buildTime ? '-build_time' : ''}${extra.fileSize ? '-file_size' : ''}`;
  return `bencher.dev/projects/${report.project.slug}/id/${id}`;
}

export const commentTag = (id: string) => `<div id="${escapeHtml(id)}"></div>`;

function measureRow(links: ReportLinks, benchmark: { uuid: string; name: string; slug: string }, m: ReportMeasure) {
  const b = m.boundary;
  return `<tr><td>${escapeHtml(benchmark.name)}</td><td>${escapeHtml(m.measure.name)}<br/>${escapeHtml(m.measure.units)}</td><td><a href="${escapeHtml(links.perfUrl(benchmark, m.measure))}">📈 view plot</a></td><td>${number(m.metric.value)}${percent(m.metric.value, b?.baseline)}</td><td>${number(b?.lower_limit)}</td><td>${number(b?.upper_limit)}</td></tr>`;
}

const TABLE_HEAD =
  '<tr><th>Benchmark</th><th>Measure</th><th>View</th><th>Result (Δ%)</th><th>Lower Boundary</th><th>Upper Boundary</th></tr>';

/** The HTML report: the PR comment, the job summary and `--format html`. */
export function htmlReport(links: ReportLinks, options: CommentOptions): string {
  const { report } = links;
  const results = (report.results ?? []).flat();
  const alerts = report.alerts ?? [];
  const parts = [
    `<h2><a href="${escapeHtml(links.reportUrl)}">🐰 Bencher Report</a></h2>`,
    '<table>',
    `<tr><td>Project</td><td><a href="${escapeHtml(links.project)}">${escapeHtml(report.project.name)}</a></td></tr>`,
    `<tr><td>Branch</td><td>${escapeHtml(report.branch.name)}</td></tr>`,
    `<tr><td>Testbed</td><td>${escapeHtml(report.testbed.name)}</td></tr>`,
    '</table>',
  ];
  if (results.length === 0) parts.push('<blockquote><b>⚠️ WARNING:</b> No benchmarks found!</blockquote>');
  else if (!results.some((r) => r.measures.some((m) => m.threshold?.model))) {
    parts.push('<blockquote><b>⚠️ WARNING:</b> No Threshold found!</blockquote>');
  }
  if (alerts.length > 0) {
    parts.push(`<h3>🚨 ${alerts.length} Alert${alerts.length === 1 ? '' : 's'}</h3>`, '<table>', TABLE_HEAD);
    for (const alert of alerts) {
      const measure = alert.threshold.measure;
      const b = alert.boundary;
      parts.push(
        `<tr><td>${escapeHtml(alert.benchmark.name)}</td><td>${escapeHtml(measure.name)}<br/>${escapeHtml(measure.units)}</td><td><a href="${escapeHtml(links.perfUrl(alert.benchmark, measure, alert.limit))}">📈 view plot</a><br/>${alert.change_point ? `📍 ${escapeHtml(changePointText(alert.change_point))}` : `🚷 ${alert.limit} limit`}</td><td><b>${number(alert.metric.value)}${percent(alert.metric.value, b.baseline)}</b></td><td>${number(b.lower_limit)}</td><td>${number(b.upper_limit)}</td></tr>`,
      );
    }
    parts.push('</table>');
  }
  if (!options.noMetrics && results.length > 0) {
    parts.push('<details><summary>Click to view all benchmark results</summary>', '<table>', TABLE_HEAD);
    for (const result of results) for (const m of result.measures) parts.push(measureRow(links, result.benchmark, m));
    parts.push('</table>', '</details>');
  }
  parts.push(commentTag(options.tag));
  const html = parts.join('\n');
  if (html.length <= MAX_COMMENT) return html;
  return truncated(links, options.tag);
}

/** The variant for reports too large for GitHub: counts and links only. */
function truncated(links: ReportLinks, tag: string): string {
  const results = (links.report.results ?? []).flat().length;
  const alerts = (links.report.alerts ?? []).length;
  return [
    `<h2><a href="${escapeHtml(links.reportUrl)}">🐰 Bencher Report</a></h2>`,
    `<p>This report is too large to show here (${results} results, ${alerts} alerts). <a href="${escapeHtml(links.reportUrl)}">View the full report</a>.</p>`,
    commentTag(tag),
  ].join('\n');
}
