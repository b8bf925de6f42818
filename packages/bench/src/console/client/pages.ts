// Project pages: reports and alerts, keys; the project menu (with the active-alert badge) and the not-found pages.
import type {
  JsonAlert,
  JsonKey,
  JsonMeasure,
  JsonProject,
  JsonReport,
  JsonReportResult,
  JsonReportSummary,
} from '../../wire/types.js';
import { api, failure, get, session } from './api.js';
import { changePointText } from './change-point.js';
import { $, date, dayOf, h, type Markup, notFound, notify, params, raw, show, uri } from './dom.js';
import { listPage } from './list.js';
import { valueText } from './plot.js';
import { formatPercent, formatScaled, type UnitScale, unitScale } from './units.js';

export const DIMENSIONS = { branches: 'Branch', testbeds: 'Testbed', benchmarks: 'Benchmark', measures: 'Measure' };
export type DimensionKind = keyof typeof DIMENSIONS;

const DAY = 86_400_000;

export const notFoundPage = (what = 'Project') =>
  show(
    h`<section data-testid="not-found"><h2>${what} Not Found</h2>${
      what === 'Project' ? h`<p>The Project may be private or it may not exist.</p>` : ''
    }<p><a href="/perf">Public projects</a> · <a href="/console">Console</a></p></section>`,
  );

/** The perf explorer of a project page's `base`. */
export const perfBase = (base: string) => (base.startsWith('/console') ? `${base}/perf` : base);

/**
 * The project menu, the same on every project page: the pinned plots, the explorer, reports, alerts (with the
 * active-alert count, filled in by `alertBadge`), thresholds, the dimensions; keys and settings in the console;
 * on a public page "View in console" for a signed-in visitor.
 */
export function projectNav(project: JsonProject, base: string, console: boolean): Markup {
  const links: [string, string][] = [
    ['plots', 'Dashboard'],
    ['perf', 'Perf'],
    ['reports', 'Reports'],
    ['alerts', 'Alerts'],
    ['thresholds', 'Thresholds'],
    ...Object.keys(DIMENSIONS).map((name): [string, string] => [name, name.charAt(0).toUpperCase() + name.slice(1)]),
    ...(console
      ? ([
          ['keys', 'Keys'],
          ['settings', 'Settings'],
        ] as [string, string][])
      : []),
  ];
  const href = (path: string) => (path === 'perf' && !console ? base : `${base}/${path}`);
  const rest = location.pathname.split('/').slice(3).join('/');
  const twin = console
    ? ''
    : `${uri`/console/projects/${project.slug}`}${rest ? `/${rest}` : '/perf'}${location.search}`;
  return h`<nav class="row" aria-label="Project"><strong>${project.name}</strong>${links.map(
    ([path, label]) =>
      h`<a href="${href(path)}">${label}${path === 'alerts' ? h` <span class="badge active" data-testid="alert-badge" hidden></span>` : ''}</a>`,
  )}${session() && !console ? h`<a class="button" href="${twin}" data-testid="view-in-console">View in console</a>` : ''}</nav>`;
}

/** Fills the menu's active-alert badge: the number of active alerts (`X-Total-Count`), hidden when none. */
export async function alertBadge(project: JsonProject): Promise<void> {
  const reply = await get<JsonAlert[]>(uri`/v0/projects/${project.slug}/alerts?per_page=1&status=active`);
  const badge = document.querySelector<HTMLElement>('[data-testid="alert-badge"]');
  if (!badge || !reply.ok || !(reply.total > 0)) return;
  badge.textContent = String(reply.total);
  badge.title = `${reply.total} active alert${reply.total === 1 ? '' : 's'}`;
  badge.hidden = false;
}

/** "🚨 2 alerts (1 active)" from a report's counts, as Bencher's reports list. */
export function alertsSummary(report: JsonReportSummary | JsonReport): Markup | '' {
  const { total, active } = report.counts.alerts;
  if (!total) return '';
  const inactive = total - active;
  const parts = [active ? `${active} active` : '', inactive ? `${inactive} inactive` : ''].filter(Boolean);
  return h`<span class="${active ? 'badge active' : 'badge'}" data-testid="report-alerts">🚨 ${total} alert${total === 1 ? '' : 's'} (${parts.join(' | ')})</span>`;
}

/** A text filter suggesting the project's branches or testbeds (name, slug or UUID all work). */
const dimensionFilter = (name: string, label: string, items: { name: string; slug: string }[]) =>
  h`<label>${label} <input data-param="${name}" list="${name}-options" value="${params().get(name) ?? ''}" placeholder="any"></label><datalist id="${name}-options">${items.map(
    (d) => h`<option value="${d.slug}">${d.name}</option>`,
  )}</datalist>`;

/** "12 benchmarks", "5 + 5 benchmarks" (per iteration), as Bencher's reports list. */
const benchmarkCount = (report: JsonReportSummary) => {
  const counts = report.counts.results.map((iteration) => iteration.benchmarks);
  const total = counts.reduce((n, count) => n + count, 0);
  return `${counts.join(' + ') || 0} benchmark${total === 1 ? '' : 's'}`;
};

/** Reports, newest first, filtered by branch, testbed and start date (Bencher's query parameters). */
export async function reportsPage(project: JsonProject, base: string): Promise<void> {
  const [branches, testbeds] = await Promise.all(
    ['branches', 'testbeds'].map(async (kind) => {
      const reply = await get<{ name: string; slug: string }[]>(uri`/v0/projects/${project.slug}/${kind}?per_page=255`);
      return reply.ok ? reply.data : [];
    }),
  );
  const filters = () =>
    h`${dimensionFilter('branch', 'Branch', branches ?? [])}${dimensionFilter('testbed', 'Testbed', testbeds ?? [])}
<label>From <input type="date" data-param="start_time" value="${dayOf(params().get('start_time'))}"></label>
<label>To <input type="date" data-param="end_time" data-day="end" value="${dayOf(params().get('end_time'))}"></label>`;
  await listPage<JsonReportSummary>(
    'Reports',
    uri`/v0/projects/${project.slug}/reports`,
    ['Started', 'Branch', 'Testbed', 'Benchmarks', 'Adapter', 'Alerts'],
    (r) =>
      h`<td><a href="${base}${uri`/reports/${r.uuid}`}">${date(r.start_time)}</a></td><td>${r.branch.name}</td><td>${r.testbed.name}</td><td>${benchmarkCount(r)}</td><td>${r.adapter}</td><td>${alertsSummary(r)}</td>`,
    { archived: true, filters },
  );
}

/** The explorer for one benchmark and measure of a report's branch head and testbed, 30 days up to the report. */
export function perfLink(
  base: string,
  report: JsonReport,
  benchmark: { uuid: string },
  measure: { uuid: string },
  limits: { lower?: boolean; upper?: boolean } = {},
) {
  const query = new URLSearchParams({
    report: report.uuid,
    branches: report.branch.uuid,
    heads: report.branch.head.uuid,
    testbeds: report.testbed.uuid,
    benchmarks: benchmark.uuid,
    measures: measure.uuid,
    start_time: String(Date.parse(report.start_time) - 30 * DAY),
    end_time: String(Date.parse(report.end_time) + 1000),
    clear: 'true',
  });
  if (limits.lower) query.set('lower_boundary', 'true');
  if (limits.upper) query.set('upper_boundary', 'true');
  return `${perfBase(base)}?${query}`;
}

/** The threshold form for this branch, testbed and measure. */
const addThreshold = (base: string, report: JsonReport, measure: JsonMeasure) =>
  `${base}/thresholds/add?${new URLSearchParams({ branch: report.branch.slug, testbed: report.testbed.slug, measure: measure.slug })}`;

/** "no threshold", in the console with a link to the form for this branch, testbed and measure. */
const noThreshold = (base: string, report: JsonReport, measure: JsonMeasure) =>
  base.startsWith('/console')
    ? h`<a href="${addThreshold(base, report, measure)}">⚠️ no threshold: add one</a>`
    : h`<span class="muted">no threshold</span>`;

/** "version 16 (ba6ca3ab…)" of a branch head's version. */
const versionText = (version: { number: number; hash: string | null } | null) =>
  version ? `${version.number}${version.hash ? ` (${version.hash})` : ''}` : '—';

/** Each measure's scale within an iteration: from all its values and limits there (as Bencher's results table). */
function iterationScales(iteration: JsonReportResult[]): Map<string, UnitScale> {
  const values = new Map<string, { units: string; values: number[] }>();
  for (const entry of iteration) {
    for (const m of entry.measures) {
      const found = values.get(m.measure.uuid) ?? { units: m.measure.units, values: [] };
      found.values.push(m.metric.value);
      for (const limit of [m.boundary?.lower_limit, m.boundary?.upper_limit])
        if (limit != null) found.values.push(limit);
      values.set(m.measure.uuid, found);
    }
  }
  return new Map([...values].map(([uuid, found]) => [uuid, unitScale(found.units, found.values)]));
}

/** A limit with Bencher's "Limit %": how close the value is to it (lower: limit / value, upper: value / limit). */
function limitText(limit: number | null | undefined, value: number, side: 'lower' | 'upper', scale: UnitScale) {
  if (limit === null || limit === undefined) return '—';
  const ratio = side === 'lower' ? (value === 0 ? 0 : limit / value) : limit === 0 ? 0 : value / limit;
  return `${formatScaled(limit, scale)} (${formatPercent(ratio * 100).replace(/^[+−]/, '')})`;
}

function resultsTable(base: string, r: JsonReport, iteration: JsonReportResult[], alerts: Map<string, JsonAlert>) {
  const scales = iterationScales(iteration);
  return h`<table data-testid="results"><tr><th>Benchmark</th><th>Measure</th><th>Value (Δ%)</th><th>Baseline</th><th>Lower limit (%)</th><th>Upper limit (%)</th><th>Alert</th><th></th></tr>${iteration.flatMap(
    (entry) =>
      entry.measures.map((m) => {
        const alert = alerts.get(`${entry.iteration}/${entry.benchmark.uuid}/${m.measure.uuid}`);
        const scale = scales.get(m.measure.uuid) as UnitScale;
        const value = m.metric.value;
        return h`<tr${raw(alert ? ' class="error"' : '')}><td><a href="${base}${uri`/benchmarks/${entry.benchmark.slug}`}">${entry.benchmark.name}</a></td><td>${m.measure.name} <span class="muted">${scale.symbol}</span></td>
<td><strong data-testid="result-value">${valueText(value, m.boundary?.baseline, scale)}</strong></td><td>${m.boundary?.baseline == null ? '—' : formatScaled(m.boundary.baseline, scale)}</td>
<td>${limitText(m.boundary?.lower_limit, value, 'lower', scale)}</td><td>${limitText(m.boundary?.upper_limit, value, 'upper', scale)}</td>
<td>${alert ? h`<a href="${base}${uri`/alerts/${alert.uuid}`}">🚨 ${alert.status}</a>` : m.threshold ? 'ok' : noThreshold(base, r, m.measure)}</td>
<td><a href="${perfLink(base, r, entry.benchmark, m.measure, { lower: m.boundary?.lower_limit != null, upper: m.boundary?.upper_limit != null })}">📈 view plot</a></td></tr>`;
      }),
  )}</table>`;
}

/** Bencher's "No Threshold found" warning: the measures no threshold guards, with the form that adds one. */
const unguardedWarning = (base: string, r: JsonReport) =>
  r.no_threshold.length
    ? h`<p class="notice" role="status" data-testid="no-threshold">⚠️ No threshold guards ${r.no_threshold.map(
        (m, i) =>
          h`${i ? ', ' : ''}${base.startsWith('/console') ? h`<a href="${addThreshold(base, r, m)}">${m.name}</a>` : m.name}`,
      )} on ${r.branch.name} × ${r.testbed.name}: without a threshold, no alert is ever raised for it.${
        base.startsWith('/console') ? ' Follow a measure to add one.' : ''
      }</p>`
    : '';

export async function reportPage(project: JsonProject, base: string, uuid: string): Promise<void> {
  const reply = await get<JsonReport>(uri`/v0/projects/${project.slug}/reports/${uuid}`);
  if (!reply.ok) return notFound('Report');
  const r = reply.data;
  const alerts = new Map(
    r.alerts.map((alert) => [`${alert.iteration}/${alert.benchmark.uuid}/${alert.threshold.measure.uuid}`, alert]),
  );
  const tables = r.results.map(
    (iteration, i) =>
      h`${r.results.length > 1 ? h`<h3>Iteration ${i}</h3>` : ''}${resultsTable(base, r, iteration, alerts)}`,
  );
  show(
    h`<section><div class="row"><h2>Report ${date(r.start_time)}</h2>${alertsSummary(r)}</div><table data-testid="report">
<tr><th>UUID</th><td>${r.uuid}</td></tr><tr><th>Branch</th><td><a href="${base}${uri`/branches/${r.branch.slug}`}">${r.branch.name}</a></td></tr><tr><th>Version</th><td data-testid="report-version">${versionText(r.branch.head.version)}</td></tr>
<tr><th>Testbed</th><td><a href="${base}${uri`/testbeds/${r.testbed.slug}`}">${r.testbed.name}</a></td></tr><tr><th>Adapter</th><td>${r.adapter}</td></tr><tr><th>Start</th><td>${date(r.start_time)}</td></tr><tr><th>End</th><td>${date(r.end_time)}</td></tr></table>
${unguardedWarning(base, r)}${r.results.length ? tables : h`<p>⚠️ No benchmarks found.</p>`}</section>`,
    $('#content'),
  );
}

const alertStatus = (a: JsonAlert) =>
  h`<span class="badge ${a.status === 'active' ? 'active' : ''}">${a.status}</span>`;

/** The alert's value in its measure's units, with Δ% against the baseline. */
const alertValue = (a: JsonAlert) =>
  valueText(a.metric.value, a.boundary.baseline, unitScale(a.threshold.measure.units, [a.metric.value]));

export async function alertsPage(project: JsonProject, base: string, editable: boolean): Promise<void> {
  const dismissAll = editable ? h`<button type="button" id="dismiss-all">Dismiss all</button>` : '';
  await listPage<JsonAlert>(
    'Alerts',
    uri`/v0/projects/${project.slug}/alerts`,
    ['Status', 'Benchmark', 'Branch', 'Testbed', 'Measure', 'Value (Δ%)', 'Created'],
    (a) =>
      h`<td>${alertStatus(a)}</td><td><a href="${base}${uri`/alerts/${a.uuid}`}">${a.benchmark.name}</a></td><td>${a.threshold.branch.name}</td><td>${a.threshold.testbed.name}</td><td>${a.threshold.measure.name}</td><td>${alertValue(a)}</td><td>${date(a.created)}</td>`,
    { archived: true, extra: dismissAll },
  );
  // On #content, which outlives the list's re-renders.
  $('#content').addEventListener('click', async (event) => {
    if ((event.target as HTMLElement).id !== 'dismiss-all') return;
    const all = await get<JsonAlert[]>(uri`/v0/projects/${project.slug}/alerts?per_page=255&status=active`);
    for (const alert of all.ok ? all.data : [])
      await api('PATCH', uri`/v0/projects/${project.slug}/alerts/${alert.uuid}`, { status: 'dismissed' });
    location.reload();
  });
}

/** An alert of a `change_point` threshold names its change: size, levels, and the reports either side of it. */
const changePointRow = (change: NonNullable<JsonAlert['change_point']>, base: string) =>
  h`<tr><th>Change point</th><td data-testid="change-point">${change.direction} of ${changePointText(change)}: <a href="${base}${uri`/reports/${change.from_report}`}">last report before</a>, <a href="${base}${uri`/reports/${change.to_report}`}">first report after</a></td></tr>`;

/** The explorer for an alert: its branch head, testbed, benchmark and measure, the violated limit on, 30 days up to it. */
function alertPerfLink(base: string, a: JsonAlert, report: JsonReport | undefined) {
  const end = Date.parse(a.created);
  const query = new URLSearchParams({
    branches: a.threshold.branch.uuid,
    heads: report?.branch.head.uuid ?? a.threshold.branch.head.uuid,
    testbeds: a.threshold.testbed.uuid,
    benchmarks: a.benchmark.uuid,
    measures: a.threshold.measure.uuid,
    start_time: String(end - 30 * DAY),
    end_time: String(end + 1000),
    [`${a.limit}_boundary`]: 'true',
    clear: 'true',
  });
  if (report) query.set('report', report.uuid);
  return `${perfBase(base)}?${query}`;
}

export async function alertPage(project: JsonProject, base: string, uuid: string, editable: boolean): Promise<void> {
  const reply = await get<JsonAlert>(uri`/v0/projects/${project.slug}/alerts/${uuid}`);
  if (!reply.ok) return notFound('Alert');
  const a = reply.data;
  const t = a.threshold;
  const reportReply = await get<JsonReport>(uri`/v0/projects/${project.slug}/reports/${a.report}`);
  const report = reportReply.ok ? reportReply.data : undefined;
  const scale = unitScale(t.measure.units, [a.metric.value]);
  const limit = a.limit === 'lower' ? a.boundary.lower_limit : a.boundary.upper_limit;
  const action = a.status === 'active' ? ['dismissed', 'Dismiss'] : ['active', 'Reactivate'];
  show(
    h`<section><div class="row"><h2>Alert: ${a.benchmark.name}</h2>${alertStatus(a)}<a class="button" href="${alertPerfLink(base, a, report)}" data-testid="alert-plot">📈 Perf plot</a>${
      editable ? h`<button type="button" id="alert-status" data-status="${action[0]}">${action[1]}</button>` : ''
    }</div>
<table><tr><th>Status</th><td data-testid="alert-status">${a.status}</td></tr><tr><th>Report</th><td><a href="${base}${uri`/reports/${a.report}`}" data-testid="alert-report">${report ? date(report.start_time) : a.report}</a></td></tr>
<tr><th>Benchmark</th><td><a href="${base}${uri`/benchmarks/${a.benchmark.slug}`}" data-testid="alert-benchmark">${a.benchmark.name}</a></td></tr>
<tr><th>Branch</th><td><a href="${base}${uri`/branches/${t.branch.slug}`}">${t.branch.name}</a></td></tr><tr><th>Version</th><td data-testid="alert-version">${versionText(report?.branch.head.version ?? null)}</td></tr>
<tr><th>Testbed</th><td>${t.testbed.name}</td></tr><tr><th>Measure</th><td>${t.measure.name} <span class="muted">${t.measure.units}</span></td></tr>
<tr><th>Value (Δ%)</th><td data-testid="alert-value">${valueText(a.metric.value, a.boundary.baseline, scale)}</td></tr>${
      a.change_point
        ? changePointRow(a.change_point, base)
        : h`<tr><th>Violated limit</th><td>${a.limit} (${limit == null ? '—' : formatScaled(limit, scale)})</td></tr>`
    }
<tr><th>Baseline</th><td>${a.boundary.baseline == null ? '—' : formatScaled(a.boundary.baseline, scale)}</td></tr><tr><th>Threshold</th><td><a href="${base}${uri`/thresholds/${t.uuid}`}${t.model ? `?model=${encodeURIComponent(t.model.uuid)}` : ''}">${t.model?.test ?? 'no model'}</a> <span class="muted">(the model when the alert was raised)</span></td></tr><tr><th>Created</th><td>${date(a.created)}</td></tr></table></section>`,
    $('#content'),
  );
  $('#alert-status')?.addEventListener('click', async (event) => {
    const done = await api('PATCH', uri`/v0/projects/${project.slug}/alerts/${uuid}`, {
      status: (event.target as HTMLElement).dataset.status,
    });
    if (!done.ok) return notify(`Failed to update the alert: ${failure(done)}`, 'error');
    alertPage(project, base, uuid, editable);
  });
}

/** API keys (a user's, or a project's): created here, the secret shown once; revoked ones listed after the live. */
export async function keysPage(path: string, title: string): Promise<void> {
  const [live, revoked] = await Promise.all([
    get<JsonKey[]>(`${path}?per_page=100`),
    get<JsonKey[]>(`${path}?per_page=100&revoked=true`),
  ]);
  const keys = [...(live.ok ? live.data : []), ...(revoked.ok ? revoked.data : [])];
  show(
    h`<section><h2>${title}</h2><form id="new-key" class="row"><label>Name <input name="name" required maxlength="64"></label><label>Lifetime (days, optional) <input name="days" type="number" min="1"></label><button class="primary">Create key</button></form>
<div id="created"></div>${
      keys.length
        ? h`<table data-testid="keys"><tr><th>Name</th><th>Created</th><th>Expires</th><th>Revoked</th><th></th></tr>${keys.map(
            (k) =>
              h`<tr${raw(k.revoked ? ' class="muted" data-revoked="true"' : '')}><td>${k.name}</td><td>${date(k.creation)}</td><td>${date(k.expiration)}</td><td>${k.revoked ? date(k.revoked) : ''}</td><td>${
                k.revoked
                  ? ''
                  : h`<span data-confirm><button type="button" data-step="ask">Revoke</button><span hidden data-sure>Revocation is permanent: anything using this key stops working. <button type="button" class="primary" data-revoke="${k.uuid}">Revoke key</button> <button type="button" data-step="cancel">Cancel</button></span></span>`
              }</td></tr>`,
          )}</table>`
        : h`<p class="muted">No keys yet.</p>`
    }</section>`,
    $('#content'),
  );
  $<HTMLFormElement>('#new-key').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const body: { name: string; ttl?: number } = { name: String(form.get('name')) };
    if (form.get('days')) body.ttl = Number(form.get('days')) * 86_400;
    const done = await api<JsonKey & { key: string }>('POST', path, body);
    if (!done.ok) return notify(`Failed to create the key: ${failure(done)}`, 'error');
    await keysPage(path, title);
    show(
      h`<section class="notice" role="status"><h3>Key “${done.data.name}” created</h3><p>Save this key: it is shown only this once.</p><p class="secret" data-testid="secret">${done.data.key}</p>${copyButton(done.data.key)}</section>`,
      $('#created'),
    );
  };
  $('#content').onclick = async (event) => {
    const target = event.target as HTMLElement;
    const step = target.dataset.step;
    const box = target.closest<HTMLElement>('[data-confirm]');
    if (step && box) {
      (box.querySelector('[data-sure]') as HTMLElement).hidden = step !== 'ask';
      (box.querySelector('[data-step="ask"]') as HTMLElement).hidden = step === 'ask';
      return;
    }
    const uuid = target.dataset.revoke;
    if (!uuid) return copy(event);
    const done = await api('DELETE', `${path}${uri`/${uuid}`}`);
    if (!done.ok) return notify(`Failed to revoke: ${failure(done)}`, 'error');
    notify('Key revoked.');
    keysPage(path, title);
  };
}

/** A button that copies `text` (see `copy`). */
export const copyButton = (text: string, label = 'Copy') =>
  h`<button type="button" data-copy="${text}">${label}</button>`;

/** For a click on a `copyButton`: copies its text and says so on the button. */
export function copy(event: Event): void {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-copy]');
  if (!button) return;
  navigator.clipboard.writeText(button.dataset.copy ?? '').then(
    () => {
      button.textContent = 'Copied';
    },
    () => notify('Copying was refused: select the text and copy it yourself.', 'error'),
  );
}

/** Legacy user API tokens: this server never issues them (Bencher deprecated them for API keys). */
export function tokensPage(user: string): void {
  show(
    h`<section data-testid="tokens"><h2>API tokens</h2><p>API tokens are deprecated: this server issues none. Use an <a href="${uri`/console/users/${user}/keys`}">API key</a> instead (<code>atrium bench run --key …</code>).</p></section>`,
    $('#content'),
  );
}
