// The perf explorer: the whole view lives in the URL (Bencher's parameter names), the plot is drawn by plot.ts.
// Below the plot, tabs as Bencher's: the four dimension pickers (the selection listed above each, whatever the
// search or page), the project's reports (`report=` highlights one; choosing one plots it) and its pinned plots.
import type {
  JsonDimension,
  JsonPerf,
  JsonPlot,
  JsonProject,
  JsonReport,
  JsonReportSummary,
} from '../../wire/types.js';
import { allowed, api, get, type Reply, session } from './api.js';
import { changePointText } from './change-point.js';
import { plotQuery, windowOptions } from './dashboard.js';
import { $, date, dayOf, h, type Markup, notify, pager, params, raw, setParams, show, turnPage, uri } from './dom.js';
import { alertBadge, alertsSummary, copy, copyButton, projectNav } from './pages.js';
import { drawPlot } from './plot.js';
import { formatScaled, unitScale } from './units.js';

export const MAX_PERMUTATIONS = 255;
const DIMENSIONS = [
  ['branches', 'Branches'],
  ['testbeds', 'Testbeds'],
  ['benchmarks', 'Benchmarks'],
  ['measures', 'Measures'],
] as const;
type Dimension = (typeof DIMENSIONS)[number][0];
const PER_PAGE = 8;
const FLAGS = [
  ['lower_value', 'Lower value'],
  ['upper_value', 'Upper value'],
  ['lower_boundary', 'Lower boundary'],
  ['upper_boundary', 'Upper boundary'],
] as const;
const TABS = [
  ['dimensions', 'Dimensions'],
  ['reports', 'Reports'],
  ['plots', 'Pinned'],
] as const;
const DAY = 86_400_000;

const list = (name: string) => (params().get(name) ?? '').split(',').filter(Boolean);
const PERF_KEYS = ['branches', 'heads', 'testbeds', 'benchmarks', 'measures', 'start_time', 'end_time'];

/** The perf API query of the current view. */
export function perfQuery(search = params()): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of PERF_KEYS) {
    const value = search.get(key);
    if (value) query.set(key, value);
  }
  return query;
}

/** The view of a report: its branch head, testbed, first ten benchmarks and first measure, 30 days up to it. */
function reportView(report: JsonReport) {
  const iteration = report.results[0] ?? [];
  const benchmarks = iteration.slice(0, 10).map((result) => result.benchmark.uuid);
  const measure = iteration[0]?.measures[0]?.measure.uuid;
  if (!benchmarks.length || !measure) return undefined;
  return {
    report: report.uuid,
    branches: report.branch.uuid,
    heads: report.branch.head.uuid,
    testbeds: report.testbed.uuid,
    benchmarks: benchmarks.join(','),
    measures: measure,
    start_time: Date.parse(report.start_time) - 30 * DAY,
    end_time: Date.parse(report.end_time) + 1000,
    clear: true,
  };
}

const reportOf = async (project: JsonProject, uuid: string) => {
  const reply = await get<JsonReport>(uri`/v0/projects/${project.slug}/reports/${uuid}`);
  return reply.ok ? reply.data : undefined;
};

/** With nothing chosen (and `clear` unset), the view of the latest report, as Bencher's cold start. */
async function coldStart(project: JsonProject): Promise<void> {
  const reports = await get<JsonReportSummary[]>(uri`/v0/projects/${project.slug}/reports?per_page=1&page=1`);
  const latest = reports.ok ? reports.data[0] : undefined;
  const report = latest && (await reportOf(project, latest.uuid));
  const view = report && reportView(report);
  if (view) setParams(view, false);
}

/** Names of the items seen so far, by UUID: the chosen items' labels. */
const names = new Map<string, string>();

/** The chosen items of a dimension with their names: those not seen yet come from its first 255 items, or by UUID. */
async function chosenItems(path: string, name: Dimension) {
  const chosen = list(name);
  if (chosen.some((id) => !names.has(id))) {
    const first = await get<JsonDimension[]>(`${path}?per_page=255`);
    for (const item of first.ok ? first.data : []) names.set(item.uuid, item.name);
  }
  const unknown = chosen.filter((id) => !names.has(id)).slice(0, 16);
  await Promise.all(
    unknown.map(async (id) => {
      const item = await get<JsonDimension>(`${path}${uri`/${id}`}`);
      names.set(id, item.ok ? item.data.name : id);
    }),
  );
  return chosen.map((uuid) => ({ uuid, name: names.get(uuid) ?? uuid }));
}

/** The dimension's items of the current search and page, and the chosen ones wherever they are. */
async function pickerItems(project: JsonProject, name: Dimension) {
  const search = params().get(`${name}_search`) ?? '';
  const page = Number(params().get(`${name}_page`) ?? 1) || 1;
  const archived = params().get(`${name}_archived`) === 'true';
  const query = new URLSearchParams({ per_page: String(PER_PAGE), page: String(page) });
  if (search) query.set('search', search);
  if (archived) query.set('archived', 'true');
  const path = uri`/v0/projects/${project.slug}/${name}`;
  const reply = await get<(JsonDimension & { head?: { uuid: string } })[]>(`${path}?${query}`);
  for (const item of reply.ok ? reply.data : []) names.set(item.uuid, item.name);
  return { reply, chosen: await chosenItems(path, name), page };
}

function pickerHtml(name: Dimension, title: string) {
  const search = params().get(`${name}_search`) ?? '';
  const archived = params().get(`${name}_archived`) === 'true';
  return h`<section class="picker" data-dimension="${name}"><h3>${title}</h3>
<div class="row"><label>Search ${title.toLowerCase()} <input type="search" name="search" value="${search}"></label>
<label><input type="checkbox" name="archived" ${raw(archived ? 'checked' : '')}> Archived</label>
<button type="button" data-clear="${name}">Clear</button></div><div class="chosen" data-testid="chosen-${name}"></div><div class="items muted">Loading…</div></section>`;
}

async function fillPicker(project: JsonProject, name: Dimension): Promise<void> {
  const section = $(`.picker[data-dimension="${name}"]`);
  const { reply, chosen, page } = await pickerItems(project, name);
  const selected = new Set(list(name));
  const items = reply.ok ? reply.data : [];
  show(
    h`${chosen.map(
      (item) =>
        h`<span class="badge">${item.name} <button type="button" data-unselect="${item.uuid}" data-dimension-name="${name}" aria-label="Remove ${item.name}">✕</button></span> `,
    )}`,
    section.querySelector('.chosen') as HTMLElement,
  );
  const itemsBox = section.querySelector('.items') as HTMLElement;
  show(
    h`${items.length ? '' : h`<p class="muted">No ${name} found.</p>`}${items.map(
      (item) =>
        h`<label><input type="checkbox" data-dimension="${name}" value="${item.uuid}" data-head="${item.head?.uuid ?? ''}" ${raw(selected.has(item.uuid) ? 'checked' : '')}> ${item.name}${item.archived ? ' (archived)' : ''}</label>`,
    )}${pager(reply.total || 0, page, PER_PAGE, `${name}_page`)}`,
    itemsBox,
  );
  itemsBox.classList.remove('muted');
}

/** Adds or removes one item of a dimension; a branch's head goes with it (`heads` is aligned with `branches`). */
function toggle(name: string, uuid: string, head: string, on: boolean): void {
  const chosen = list(name);
  const heads = list('heads');
  const at = chosen.indexOf(uuid);
  if (on && at < 0) {
    chosen.push(uuid);
    if (name === 'branches') heads.push(head);
  } else if (!on && at >= 0) {
    chosen.splice(at, 1);
    if (name === 'branches') heads.splice(at, 1);
  }
  const changes: Record<string, string | boolean | null> = { [name]: chosen.join(','), report: null, clear: true };
  if (name === 'branches') changes.heads = heads.join(',');
  setParams(changes);
}

const permutations = () => DIMENSIONS.reduce((n, [name]) => n * list(name).length, 1);

function controlsHtml() {
  const p = params();
  return h`<div class="row" id="controls">
<label>X-axis <select name="x_axis"><option value="date_time">Date</option><option value="version" ${raw(p.get('x_axis') === 'version' ? 'selected' : '')}>Version</option></select></label>
<label>Y-axis <select name="y_axis">${['auto', 'linear', 'log'].map((v) => h`<option ${raw(p.get('y_axis') === v ? 'selected' : '')}>${v}</option>`)}</select></label>
<label>Start date <input type="date" name="start_time" value="${dayOf(p.get('start_time'))}"></label>
<label>End date <input type="date" name="end_time" value="${dayOf(p.get('end_time'))}"></label>
${FLAGS.map(([flag, label]) => h`<label><input type="checkbox" name="${flag}" ${raw(p.get(flag) === 'true' ? 'checked' : '')}> ${label}</label>`)}</div>`;
}

/** The view's own query (dimensions, window, axes, limits): what a shared link or an embed keeps. */
function viewQuery(): URLSearchParams {
  const query = perfQuery();
  const p = params();
  for (const key of ['x_axis', 'y_axis', ...FLAGS.map(([flag]) => flag)]) {
    const value = p.get(key);
    if (value) query.set(key, value);
  }
  query.set('clear', 'true');
  return query;
}

/** The share and embed dialog: the page, the PNG, an `<img>` snippet and an iframe of `/perf/{p}/embed`. */
function shareHtml(project: JsonProject) {
  const query = viewQuery();
  const title = params().get('title');
  if (title) query.set('title', title);
  const image = `${location.origin}${uri`/v0/projects/${project.slug}/perf/img`}?${perfQuery()}${title ? `&title=${encodeURIComponent(title)}` : ''}`;
  const page = `${location.origin}${uri`/perf/${project.slug}`}?${viewQuery()}`;
  const embed = `${location.origin}${uri`/perf/${project.slug}/embed`}?${query}`;
  const label = title || `${project.name} benchmarks`;
  const snippets: [string, string, string][] = [
    ['link', 'Public link', page],
    ['img', 'Image (Markdown or HTML)', `<a href="${page}"><img src="${image}" alt="${label}"></a>`],
    [
      'iframe',
      'Embed (iframe)',
      `<iframe src="${embed}" title="${label}" width="100%" height="480" frameborder="0"></iframe>`,
    ],
  ];
  return h`<details id="share"${raw(params().get('share') === 'true' ? ' open' : '')}><summary>Share and embed</summary>
<label>Title <input name="share_title" maxlength="64" value="${title ?? ''}" placeholder="${project.name}"></label>
<p><a href="${image}" data-testid="png">PNG of this plot</a> · <a href="${embed}" data-testid="embed-link">Embedded page</a></p>
${snippets.map(
  ([name, text, snippet]) =>
    h`<div class="row"><label>${text} <textarea readonly rows="2" cols="80" data-testid="share-${name}">${snippet}</textarea></label>${copyButton(snippet)}</div>`,
)}</details>`;
}

function pinHtml() {
  return h`<details><summary>Pin this plot to the dashboard</summary><form id="pin" class="row">
<label>Title <input name="title" maxlength="64"></label>
<label>Window <select name="window">${windowOptions(2_419_200)}</select></label>
<label>Rank <input name="rank" type="number" min="1" max="64" value="64"></label><button class="primary">Pin</button></form></details>`;
}

const perfPath = (project: JsonProject) => `${uri`/v0/projects/${project.slug}/perf`}?${perfQuery()}`;

/** Whether the view names every dimension within the permutation limit, so that it is asked for. */
const askable = () => DIMENSIONS.every(([name]) => list(name).length) && permutations() <= MAX_PERMUTATIONS;

/**
 * The perf answer of `path`. The shell preloads a public view's answer, asked without credentials (the
 * same for everyone), while the modules load; only the very same request picks it up.
 */
async function perfReply(path: string): Promise<Reply<JsonPerf>> {
  const preloads = document.querySelectorAll('link[rel="preload"][as="fetch"]');
  if (![...preloads].some((link) => link.getAttribute('href') === path)) return get<JsonPerf>(path);
  const response = await fetch(path);
  const data: unknown = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data, total: Number.NaN } as Reply<JsonPerf>;
}

const plotOptions = (base: string, width: number) => {
  const p = params();
  return {
    xAxis: p.get('x_axis') === 'version' ? ('version' as const) : ('date_time' as const),
    yAxis: p.get('y_axis') ?? 'auto',
    lowerValue: p.get('lower_value') === 'true',
    upperValue: p.get('upper_value') === 'true',
    lowerBoundary: p.get('lower_boundary') === 'true',
    upperBoundary: p.get('upper_boundary') === 'true',
    width: Math.max(280, width - 8),
    base,
  };
};

const pointsOf = (perf: JsonPerf) => perf.results.reduce((n, result) => n + result.metrics.length, 0);

/** Draws the view; `pending` is its perf answer when already asked for. */
async function drawView(project: JsonProject, base: string, pending?: Promise<Reply<JsonPerf>>): Promise<void> {
  const target = $('#plot');
  const alerts = $('#plot-alerts');
  const missing = DIMENSIONS.filter(([name]) => list(name).length === 0).map(([, title]) => title.toLowerCase());
  if (missing.length) {
    show(h`<p class="muted" data-testid="plot-empty">Select at least one of: ${missing.join(', ')}.</p>`, target);
    show(raw(''), alerts);
    return;
  }
  const count = permutations();
  if (count > MAX_PERMUTATIONS) {
    show(
      h`<p class="error" role="alert">Too many permutations: ${count} (${DIMENSIONS.map(([n]) => list(n).length).join(' × ')}); the limit is ${MAX_PERMUTATIONS}. Deselect some branches, testbeds, benchmarks or measures.</p>`,
      target,
    );
    return;
  }
  const reply = await (pending ?? perfReply(perfPath(project)));
  if (!reply.ok) {
    show(h`<p class="error" role="alert">Failed to load the plot: ${reply.data?.message ?? reply.status}</p>`, target);
    return;
  }
  const perf = reply.data;
  const points = pointsOf(perf);
  if (!points) {
    show(h`<p class="muted" data-testid="plot-empty">No data found for this view.</p>`, target);
    show(raw(''), alerts);
    return;
  }
  const started = performance.now();
  drawPlot(target, perf, plotOptions(base, target.clientWidth));
  target.dataset.points = String(points);
  target.dataset.drawMs = String(Math.round(performance.now() - started));
  const active = perf.results.flatMap((result) =>
    result.metrics.flatMap((m) => (m.alert?.status === 'active' ? [{ result, metric: m, alert: m.alert }] : [])),
  );
  const changes = perf.results.flatMap((result) =>
    ('change_points' in result ? (result.change_points ?? []) : []).map((change) => ({ result, change })),
  );
  show(
    h`${
      active.length
        ? h`<h3>🚨 Active alerts on this plot</h3><ul>${active.map(
            ({ result, metric, alert }) =>
              h`<li><a href="${base}${uri`/alerts/${alert.uuid}`}">${result.benchmark.name} · ${result.measure.name} at ${date(metric.start_time)}: ${formatScaled(metric.metric.value, unitScale(result.measure.units, [metric.metric.value]))}</a></li>`,
          )}</ul>`
        : raw('')
    }${
      changes.length
        ? h`<h3>📍 Change points on this plot</h3><ul data-testid="plot-changes">${changes.map(
            ({ result, change }) =>
              h`<li><a href="${base}${uri`/reports/${change.to_report}`}">${result.benchmark.name} · ${result.branch.name} · ${result.measure.name}: ${changePointText(change)}</a></li>`,
          )}</ul>`
        : raw('')
    }`,
    alerts,
  );
  document.body.dataset.plotted = 'true';
}

const REPORTS_PER_PAGE = 8;

/** The Reports tab: the project's reports, newest first; `report=` is highlighted; "Plot" views one. */
async function reportsTab(project: JsonProject, base: string): Promise<Markup> {
  const page = Number(params().get('reports_page') ?? 1) || 1;
  const reply = await get<JsonReportSummary[]>(
    `${uri`/v0/projects/${project.slug}/reports`}?per_page=${REPORTS_PER_PAGE}&page=${page}`,
  );
  if (!reply.ok) return h`<p class="error">Failed to fetch the reports.</p>`;
  const highlighted = params().get('report');
  return h`<table data-testid="perf-reports"><tr><th>Started</th><th>Branch</th><th>Testbed</th><th>Alerts</th><th></th></tr>${reply.data.map(
    (r) =>
      h`<tr${raw(r.uuid === highlighted ? ' aria-current="true" class="notice" data-testid="current-report"' : '')}><td><a href="${base}${uri`/reports/${r.uuid}`}">${date(r.start_time)}</a></td><td>${r.branch.name}</td><td>${r.testbed.name}</td><td>${alertsSummary(r)}</td><td><button type="button" data-view-report="${r.uuid}">Plot</button></td></tr>`,
  )}</table>${reply.data.length ? '' : h`<p class="muted">No reports yet.</p>`}${pager(reply.total || 0, page, REPORTS_PER_PAGE, 'reports_page')}`;
}

/** The Pinned tab: the project's pinned plots; "Plot" views one over its window. */
async function plotsTab(project: JsonProject, base: string): Promise<Markup> {
  const reply = await get<JsonPlot[]>(uri`/v0/projects/${project.slug}/plots?per_page=64`);
  if (!reply.ok) return h`<p class="error">Failed to fetch the pinned plots.</p>`;
  const current = params().get('plot');
  return reply.data.length
    ? h`<ul data-testid="perf-plots">${reply.data.map(
        (plot) =>
          h`<li${raw(plot.uuid === current ? ' aria-current="true"' : '')}><a href="${`${location.pathname}?${plotQuery(plot)}`}">${plot.title ?? 'Untitled plot'}</a></li>`,
      )}</ul>`
    : h`<p class="muted">No pinned plots. <a href="${base}/plots">Dashboard</a></p>`;
}

const currentTab = () => {
  const tab = params().get('tab');
  return TABS.some(([name]) => name === tab) ? (tab as string) : 'dimensions';
};

async function fillTab(project: JsonProject, base: string): Promise<void> {
  const tab = currentTab();
  if (tab === 'dimensions') {
    show(h`<div class="grid">${DIMENSIONS.map(([name, title]) => pickerHtml(name, title))}</div>`, $('#tab'));
    await Promise.all(DIMENSIONS.map(([name]) => fillPicker(project, name)));
  } else show(await (tab === 'reports' ? reportsTab(project, base) : plotsTab(project, base)), $('#tab'));
}

const tabsHtml = () =>
  h`<nav class="row" role="tablist" aria-label="Explorer">${TABS.map(
    ([name, label]) =>
      h`<button type="button" role="tab" data-tab="${name}" aria-selected="${String(currentTab() === name)}"${raw(currentTab() === name ? ' class="primary"' : '')}>${label}</button>`,
  )}</nav><div id="tab"></div>`;

/** The explorer page of `project`; `base` is `/perf/{slug}` or `/console/projects/{slug}`. */
export async function perfPage(project: JsonProject, base: string, console: boolean): Promise<void> {
  if (params().get('clear') !== 'true' && DIMENSIONS.every(([name]) => !list(name).length)) await coldStart(project);
  // The plot's data is asked for before anything else the page waits on.
  const first = askable() ? perfReply(perfPath(project)) : undefined;
  const manage = Boolean(session()) && (await allowed(uri`/v0/projects/${project.slug}/allowed/manage`));
  const render = async (pending?: Promise<Reply<JsonPerf>>) => {
    show(h`${projectNav(project, base, console)}<section>
${controlsHtml()}<div id="plot" data-testid="plot"></div><div id="plot-alerts"></div>${shareHtml(project)}${manage ? pinHtml() : ''}</section>
${tabsHtml()}`);
    alertBadge(project);
    await Promise.all([drawView(project, base, pending), fillTab(project, base)]);
  };
  await render(first);
  const app = $('#app');
  app.addEventListener('change', async (event) => {
    const input = event.target as HTMLInputElement;
    if (input.dataset.dimension) toggle(input.dataset.dimension, input.value, input.dataset.head ?? '', input.checked);
    else if (input.name === 'archived') {
      const name = (input.closest('.picker') as HTMLElement).dataset.dimension;
      setParams({ [`${name}_archived`]: input.checked ? 'true' : null, [`${name}_page`]: null });
    } else if (input.name === 'x_axis' || input.name === 'y_axis') setParams({ [input.name]: input.value });
    else if (input.name === 'start_time' || input.name === 'end_time') {
      const ms = input.valueAsNumber;
      setParams({
        [input.name]: Number.isFinite(ms) ? ms + (input.name === 'end_time' ? 86_399_999 : 0) : null,
        clear: true,
      });
    } else if (input.name === 'share_title') setParams({ title: input.value.trim() || null, share: true }, false);
    else if (FLAGS.some(([flag]) => flag === input.name)) setParams({ [input.name]: input.checked ? 'true' : null });
    else return;
    await render();
  });
  let typing: ReturnType<typeof setTimeout> | undefined;
  app.addEventListener('input', (event) => {
    const input = event.target as HTMLInputElement;
    if (input.name !== 'search') return;
    const name = (input.closest('.picker') as HTMLElement).dataset.dimension as Dimension;
    clearTimeout(typing);
    typing = setTimeout(() => {
      setParams({ [`${name}_search`]: input.value, [`${name}_page`]: null }, false);
      fillPicker(project, name);
    }, 250);
  });
  app.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button');
    if (!button) return;
    const { clear, unselect, dimensionName, tab, viewReport } = button.dataset;
    if (button.dataset.copy !== undefined) return copy(event);
    if (clear) setParams({ [clear]: null, ...(clear === 'branches' ? { heads: null } : {}), clear: true });
    else if (unselect && dimensionName) toggle(dimensionName, unselect, '', false);
    else if (tab) setParams({ tab: tab === 'dimensions' ? null : tab }, false);
    else if (viewReport) {
      const report = await reportOf(project, viewReport);
      const view = report && reportView(report);
      if (!view) return notify('This report has no results to plot.', 'error');
      setParams({ ...view, tab: 'reports' });
    } else if (!turnPage(event)) return;
    await render();
  });
  app.addEventListener('submit', async (event) => {
    if ((event.target as HTMLElement).id !== 'pin') return;
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const p = params();
    const yAxis = p.get('y_axis');
    const body = {
      title: form.get('title') || null,
      window: Number(form.get('window')),
      index: Math.max(0, Number(form.get('rank') || 64) - 1),
      x_axis: p.get('x_axis') === 'version' ? 'version' : 'date_time',
      y_axis: yAxis === 'linear' || yAxis === 'log' ? yAxis : 'auto',
      ...Object.fromEntries(FLAGS.map(([flag]) => [flag, p.get(flag) === 'true'])),
      ...Object.fromEntries(DIMENSIONS.map(([name]) => [name, list(name)])),
    };
    const reply = await api('POST', uri`/v0/projects/${project.slug}/plots`, body);
    if (!reply.ok) return notify(`Failed to pin the plot: ${reply.data?.message ?? reply.status}`, 'error');
    location.href = uri`/console/projects/${project.slug}/plots?notify_text=${'Plot pinned.'}`;
  });
  window.addEventListener('popstate', () => render());
}

/** `/perf/{p}/embed`: the plot alone (an iframe's page), titled, linking to the full explorer. */
export async function embedPage(project: JsonProject): Promise<void> {
  document.body.classList.add('embed');
  const title = params().get('title') || project.name;
  show(
    h`<section><h2><a href="${`${uri`/perf/${project.slug}`}?${viewQuery()}`}" target="_blank" rel="noopener">${title}</a></h2><div id="plot" data-testid="plot"></div><div id="plot-alerts" hidden></div></section>`,
  );
  if (!askable()) {
    show(h`<p class="muted" data-testid="plot-empty">This embedded view names no plot.</p>`, $('#plot'));
    return;
  }
  await drawView(project, uri`/perf/${project.slug}`);
}
