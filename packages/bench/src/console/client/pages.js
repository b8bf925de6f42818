// Project pages: dashboard of pinned plots, reports and alerts, keys; the project menu and the not-found page.
import { api, failure, get } from './api.js';
import { changePointText } from './change-point.js';
import { $, date, dayOf, h, notFound, notify, params, raw, show, uri } from './dom.js';
import { listPage } from './list.js';
import { drawPlot } from './plot.js';

export const DIMENSIONS = { branches: 'Branch', testbeds: 'Testbed', benchmarks: 'Benchmark', measures: 'Measure' };

export const notFoundPage = () =>
  show(
    h`<section data-testid="not-found"><h2>Project Not Found</h2><p>The Project may be private or it may not exist.</p><p><a href="/perf">Public projects</a></p></section>`,
  );

export function projectNav(project, base, console) {
  const links = [
    ['plots', 'Dashboard'],
    ['perf', 'Perf'],
    ['reports', 'Reports'],
    ['alerts', 'Alerts'],
    ['thresholds', 'Thresholds'],
    ...Object.keys(DIMENSIONS).map((name) => [name, name[0].toUpperCase() + name.slice(1)]),
    ...(console
      ? [
          ['keys', 'Keys'],
          ['settings', 'Settings'],
        ]
      : []),
  ];
  const href = (path) => (path === 'perf' && !console ? base : `${base}/${path}`);
  return h`<nav class="row" aria-label="Project"><strong>${project.name}</strong>${links.map(([path, label]) => h`<a href="${href(path)}">${label}</a>`)}</nav>`;
}

const alertsSummary = (report) => (report.alerts?.length ? `🚨 ${report.alerts.length}` : '');

/** A text filter suggesting the project's branches or testbeds (name, slug or UUID all work). */
const dimensionFilter = (name, label, items) =>
  h`<label>${label} <input data-param="${name}" list="${name}-options" value="${params().get(name) ?? ''}" placeholder="any"></label><datalist id="${name}-options">${items.map(
    (d) => h`<option value="${d.slug}">${d.name}</option>`,
  )}</datalist>`;

/** Reports, newest first, filtered by branch, testbed and start date (Bencher's query parameters). */
export async function reportsPage(project, base) {
  const [branches, testbeds] = await Promise.all(
    ['branches', 'testbeds'].map(
      async (kind) => (await get(uri`/v0/projects/${project.slug}/${kind}?per_page=255`)).data ?? [],
    ),
  );
  const filters = () =>
    h`${dimensionFilter('branch', 'Branch', branches)}${dimensionFilter('testbed', 'Testbed', testbeds)}
<label>From <input type="date" data-param="start_time" value="${dayOf(params().get('start_time'))}"></label>
<label>To <input type="date" data-param="end_time" data-day="end" value="${dayOf(params().get('end_time'))}"></label>`;
  return listPage(
    'Reports',
    uri`/v0/projects/${project.slug}/reports`,
    ['Started', 'Branch', 'Testbed', 'Adapter', 'Alerts'],
    (r) =>
      h`<td><a href="${base}${uri`/reports/${r.uuid}`}">${date(r.start_time)}</a></td><td>${r.branch.name}</td><td>${r.testbed.name}</td><td>${r.adapter}</td><td>${alertsSummary(r)}</td>`,
    { archived: true, filters },
  );
}

function perfLink(base, report, benchmark, measure, limits) {
  const start = Date.parse(report.start_time);
  const query = new URLSearchParams({
    report: report.uuid,
    branches: report.branch.uuid,
    heads: report.branch.head?.uuid ?? '',
    testbeds: report.testbed.uuid,
    benchmarks: benchmark.uuid,
    measures: measure.uuid,
    start_time: String(start - 30 * 86_400_000),
    end_time: String(Date.parse(report.end_time) + 1000),
    clear: 'true',
  });
  if (limits) {
    query.set('lower_boundary', 'true');
    query.set('upper_boundary', 'true');
  }
  return `${base.startsWith('/console') ? `${base}/perf` : base}?${query}`;
}

/** "no threshold", in the console with a link to the form for this branch, testbed and measure. */
const noThreshold = (base, report, measure) =>
  base.startsWith('/console')
    ? h`<a href="${base}/thresholds/add?${new URLSearchParams({ branch: report.branch.slug, testbed: report.testbed.slug, measure: measure.slug })}">⚠️ no threshold: add one</a>`
    : h`<span class="muted">no threshold</span>`;

export async function reportPage(project, base, uuid) {
  const reply = await get(uri`/v0/projects/${project.slug}/reports/${uuid}`);
  if (!reply.ok) return notFound('Report');
  const r = reply.data;
  const alertOf = new Map(
    (r.alerts ?? []).map((alert) => [
      `${alert.iteration}/${alert.benchmark.uuid}/${alert.threshold?.measure?.uuid}`,
      alert,
    ]),
  );
  const tables = (r.results ?? []).map(
    (iteration, i) =>
      h`<h3>Iteration ${i}</h3><table data-testid="results"><tr><th>Benchmark</th><th>Measure</th><th>Value</th><th>Lower / upper value</th><th>Lower limit</th><th>Upper limit</th><th>Alert</th><th></th></tr>${iteration.flatMap(
        (entry) =>
          entry.measures.map((m) => {
            const alert = alertOf.get(`${entry.iteration}/${entry.benchmark.uuid}/${m.measure.uuid}`);
            return h`<tr${raw(alert ? ' class="error"' : '')}><td>${entry.benchmark.name}</td><td>${m.measure.name} <span class="muted">${m.measure.units}</span></td><td><strong>${m.metric.value}</strong></td>
<td>${m.metric.lower_value ?? '—'} / ${m.metric.upper_value ?? '—'}</td><td>${m.boundary?.lower_limit ?? '—'}</td><td>${m.boundary?.upper_limit ?? '—'}</td>
<td>${alert ? h`<a href="${base}${uri`/alerts/${alert.uuid}`}">🚨 ${alert.status}</a>` : m.threshold ? 'ok' : noThreshold(base, r, m.measure)}</td>
<td><a href="${perfLink(base, r, entry.benchmark, m.measure, Boolean(m.boundary))}">📈 view plot</a></td></tr>`;
          }),
      )}</table>`,
  );
  show(
    h`<section><h2>Report ${date(r.start_time)}</h2><table>
<tr><th>UUID</th><td>${r.uuid}</td></tr><tr><th>Branch</th><td>${r.branch.name}</td></tr><tr><th>Version</th><td>${r.version?.number ?? ''} ${r.version?.hash ?? ''}</td></tr>
<tr><th>Testbed</th><td>${r.testbed.name}</td></tr><tr><th>Adapter</th><td>${r.adapter}</td></tr><tr><th>End</th><td>${date(r.end_time)}</td></tr></table>
${(r.results ?? []).length ? tables : h`<p>⚠️ No benchmarks found.</p>`}</section>`,
    $('#content'),
  );
}

const alertStatus = (a) => h`<span class="badge ${a.status === 'active' ? 'active' : ''}">${a.status}</span>`;

export async function alertsPage(project, base, editable) {
  const dismissAll = editable ? h`<button type="button" id="dismiss-all">Dismiss all</button>` : '';
  await listPage(
    'Alerts',
    uri`/v0/projects/${project.slug}/alerts`,
    ['Status', 'Benchmark', 'Branch', 'Testbed', 'Measure', 'Created'],
    (a) =>
      h`<td>${alertStatus(a)}</td><td><a href="${base}${uri`/alerts/${a.uuid}`}">${a.benchmark.name}</a></td><td>${a.threshold.branch.name}</td><td>${a.threshold.testbed.name}</td><td>${a.threshold.measure.name}</td><td>${date(a.created)}</td>`,
    { archived: true, extra: dismissAll },
  );
  // On #content, which outlives the list's re-renders.
  $('#content').addEventListener('click', async (event) => {
    if (event.target.id !== 'dismiss-all') return;
    const all = await get(uri`/v0/projects/${project.slug}/alerts?per_page=255&status=active`);
    for (const alert of all.data ?? [])
      await api('PATCH', uri`/v0/projects/${project.slug}/alerts/${alert.uuid}`, { status: 'dismissed' });
    location.reload();
  });
}

/** An alert of a `change_point` threshold names its change: size, levels, and the reports either side of it. */
const changePointRow = (change, base) =>
  h`<tr><th>Change point</th><td data-testid="change-point">${change.direction} of ${changePointText(change)}: <a href="${base}${uri`/reports/${change.from_report}`}">last report before</a>, <a href="${base}${uri`/reports/${change.to_report}`}">first report after</a></td></tr>`;

export async function alertPage(project, base, uuid, editable) {
  const reply = await get(uri`/v0/projects/${project.slug}/alerts/${uuid}`);
  if (!reply.ok) return notFound('Alert');
  const a = reply.data;
  const t = a.threshold;
  const action = a.status === 'active' ? ['dismissed', 'Dismiss'] : ['active', 'Reactivate'];
  show(
    h`<section><div class="row"><h2>Alert: ${a.benchmark.name}</h2>${alertStatus(a)}${editable ? h`<button type="button" id="alert-status" data-status="${action[0]}">${action[1]}</button>` : ''}</div>
<table><tr><th>Status</th><td data-testid="alert-status">${a.status}</td></tr><tr><th>Report</th><td><a href="${base}${uri`/reports/${a.report}`}">${a.report}</a></td></tr>
<tr><th>Branch</th><td>${t.branch.name}</td></tr><tr><th>Testbed</th><td>${t.testbed.name}</td></tr><tr><th>Measure</th><td>${t.measure.name}</td></tr>
<tr><th>Value</th><td>${a.metric.value}</td></tr>${a.change_point ? changePointRow(a.change_point, base) : h`<tr><th>Violated limit</th><td>${a.limit} (${a.limit === 'lower' ? a.boundary.lower_limit : a.boundary.upper_limit})</td></tr>`}
<tr><th>Baseline</th><td>${a.boundary.baseline}</td></tr><tr><th>Threshold</th><td><a href="${base}${uri`/thresholds/${t.uuid}`}${t.model ? `?model=${encodeURIComponent(t.model.uuid)}` : ''}">${t.model?.test ?? 'no model'}</a> <span class="muted">(the model when the alert was raised)</span></td></tr><tr><th>Created</th><td>${date(a.created)}</td></tr></table></section>`,
    $('#content'),
  );
  $('#alert-status')?.addEventListener('click', async (event) => {
    const done = await api('PATCH', uri`/v0/projects/${project.slug}/alerts/${uuid}`, {
      status: event.target.dataset.status,
    });
    if (!done.ok) return notify(`Failed to update the alert: ${failure(done)}`, 'error');
    alertPage(project, base, uuid, editable);
  });
}

/** The pinned-plots dashboard: each card draws the plot's last `window` seconds on the branch's current head. */
export async function dashboardPage(project, base, editable) {
  const reply = await get(uri`/v0/projects/${project.slug}/plots?per_page=64`);
  const plots = reply.ok ? reply.data : [];
  const perf = base.startsWith('/console') ? `${base}/perf` : base;
  show(
    h`<section><div class="row"><h2>Dashboard</h2><a href="${perf}">Perf plot</a></div>${
      plots.length
        ? ''
        : h`<p class="muted">This project has no pinned plots. Open the <a href="${perf}">perf plot</a> and pin one.</p>`
    }</section><div class="grid" data-testid="dashboard">${plots.map(
      (plot, i) =>
        h`<section class="pinned" data-plot="${plot.uuid}"><div class="row"><span class="badge">${i + 1}</span><h3>${plot.title ?? 'Untitled plot'}</h3>${
          editable
            ? h`<button type="button" data-move="${i - 1}" aria-label="Move up" ${raw(i === 0 ? 'disabled' : '')}>▲</button><button type="button" data-move="${i + 1}" aria-label="Move down" ${raw(i === plots.length - 1 ? 'disabled' : '')}>▼</button><button type="button" data-unpin>Unpin</button>`
            : ''
        }</div><div class="plot" data-testid="pinned-plot"><p class="muted">Loading…</p></div></section>`,
    )}</div>`,
    $('#content'),
  );
  const now = Date.now();
  await Promise.all(
    plots.map(async (plot) => {
      const card = $(`[data-plot="${plot.uuid}"] .plot`);
      const query = new URLSearchParams({
        branches: plot.branches.join(','),
        testbeds: plot.testbeds.join(','),
        benchmarks: plot.benchmarks.join(','),
        measures: plot.measures.join(','),
        start_time: String(Math.max(0, now - plot.window * 1000)),
        end_time: String(now),
      });
      const data = await get(`${uri`/v0/projects/${project.slug}/perf`}?${query}`);
      const points = data.ok ? data.data.results.reduce((n, r) => n + r.metrics.length, 0) : 0;
      if (!points) return show(h`<p class="muted">No data in this window.</p>`, card);
      card.dataset.points = String(points);
      drawPlot(card, data.data, {
        xAxis: plot.x_axis,
        yAxis: plot.y_axis,
        lowerValue: plot.lower_value,
        upperValue: plot.upper_value,
        lowerBoundary: plot.lower_boundary,
        upperBoundary: plot.upper_boundary,
        width: Math.max(260, card.clientWidth - 8),
        height: 260,
        base,
      });
    }),
  );
  $('#content').onclick = async (event) => {
    const button = event.target.closest('button');
    const card = button?.closest('[data-plot]');
    if (!card) return;
    const path = uri`/v0/projects/${project.slug}/plots/${card.dataset.plot}`;
    const done =
      button.dataset.unpin !== undefined
        ? await api('DELETE', path)
        : await api('PATCH', path, { index: Number(button.dataset.move) });
    if (!done.ok) return notify(`Failed to update the dashboard: ${failure(done)}`, 'error');
    dashboardPage(project, base, editable);
  };
}

/** API keys (a user's, or a project's): created here, the secret shown once. */
export async function keysPage(path, title) {
  const reply = await get(`${path}?per_page=100`);
  show(
    h`<section><h2>${title}</h2><form id="new-key" class="row"><label>Name <input name="name" required maxlength="64"></label><label>Lifetime (days, optional) <input name="days" type="number" min="1"></label><button class="primary">Create key</button></form>
<div id="created"></div>${
      reply.ok && reply.data.length
        ? h`<table data-testid="keys"><tr><th>Name</th><th>Created</th><th>Expires</th><th>Revoked</th><th></th></tr>${reply.data.map(
            (k) =>
              h`<tr><td>${k.name}</td><td>${date(k.creation ?? k.created)}</td><td>${date(k.expiration)}</td><td>${date(k.revocation ?? k.revoked)}</td><td>${
                k.revocation || k.revoked ? '' : h`<button type="button" data-revoke="${k.uuid}">Revoke</button>`
              }</td></tr>`,
          )}</table>`
        : h`<p class="muted">No keys yet.</p>`
    }</section>`,
    $('#content'),
  );
  $('#new-key').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const body = { name: form.get('name') };
    if (form.get('days')) body.ttl = Number(form.get('days')) * 86_400;
    const done = await api('POST', path, body);
    if (!done.ok) return notify(`Failed to create the key: ${failure(done)}`, 'error');
    await keysPage(path, title);
    show(
      h`<section class="notice" role="status"><h3>Key “${done.data.name}” created</h3><p>Save this key: it is shown only this once.</p><p class="secret" data-testid="secret">${done.data.key ?? done.data.token}</p></section>`,
      $('#created'),
    );
  };
  $('#content').onclick = async (event) => {
    const uuid = event.target.dataset?.revoke;
    if (!uuid) return;
    const done = await api('DELETE', `${path}${uri`/${uuid}`}`);
    if (!done.ok) return notify(`Failed to revoke: ${failure(done)}`, 'error');
    keysPage(path, title);
  };
}
