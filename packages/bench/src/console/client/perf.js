// The perf explorer: the whole view lives in the URL (Bencher's parameter names), the plot is drawn by plot.js.
import { allowed, api, get, session } from './api.js';
import { changePointText } from './change-point.js';
import { $, dayOf, h, notify, pager, params, raw, setParams, show, turnPage, uri } from './dom.js';
import { drawPlot } from './plot.js';

export const MAX_PERMUTATIONS = 255;
const DIMENSIONS = [
  ['branches', 'Branches'],
  ['testbeds', 'Testbeds'],
  ['benchmarks', 'Benchmarks'],
  ['measures', 'Measures'],
];
const PER_PAGE = 8;
const FLAGS = [
  ['lower_value', 'Lower value'],
  ['upper_value', 'Upper value'],
  ['lower_boundary', 'Lower boundary'],
  ['upper_boundary', 'Upper boundary'],
];

const list = (name) => (params().get(name) ?? '').split(',').filter(Boolean);
const PERF_KEYS = ['branches', 'heads', 'testbeds', 'benchmarks', 'measures', 'start_time', 'end_time'];

/** The perf API query of the current view. */
export function perfQuery(search = params()) {
  const query = new URLSearchParams();
  for (const key of PERF_KEYS) if (search.get(key)) query.set(key, search.get(key));
  return query;
}

/** With nothing chosen (and `clear` unset), the view of the latest report, as Bencher's cold start. */
async function coldStart(project) {
  const reports = await get(uri`/v0/projects/${project.slug}/reports?per_page=1&page=1`);
  const latest = reports.data?.[0];
  if (!latest) return false;
  const report = (await get(uri`/v0/projects/${project.slug}/reports/${latest.uuid}`)).data;
  const iteration = report.results?.[0] ?? [];
  const benchmarks = iteration.slice(0, 10).map((result) => result.benchmark.uuid);
  const measure = iteration[0]?.measures?.[0]?.measure?.uuid;
  if (!benchmarks.length || !measure) return false;
  const start = Date.parse(report.start_time);
  setParams(
    {
      report: report.uuid,
      branches: report.branch.uuid,
      heads: report.branch.head?.uuid ?? '',
      testbeds: report.testbed.uuid,
      benchmarks: benchmarks.join(','),
      measures: measure,
      start_time: start - 30 * 86_400_000,
      end_time: Date.parse(report.end_time) + 1000,
      clear: true,
    },
    false,
  );
  return true;
}

function pickerHtml(name, title) {
  const search = params().get(`${name}_search`) ?? '';
  const archived = params().get(`${name}_archived`) === 'true';
  return h`<section class="picker" data-dimension="${name}"><h3>${title}</h3>
<div class="row"><label>Search ${title.toLowerCase()} <input type="search" name="search" value="${search}"></label>
<label><input type="checkbox" name="archived" ${raw(archived ? 'checked' : '')}> Archived</label>
<button type="button" data-clear="${name}">Clear</button></div><div class="items muted">Loading…</div></section>`;
}

async function fillPicker(project, name) {
  const section = $(`.picker[data-dimension="${name}"]`);
  const search = params().get(`${name}_search`) ?? '';
  const page = Number(params().get(`${name}_page`) ?? 1) || 1;
  const archived = params().get(`${name}_archived`) === 'true';
  const query = new URLSearchParams({ per_page: String(PER_PAGE), page: String(page) });
  if (search) query.set('search', search);
  if (archived) query.set('archived', 'true');
  const reply = await get(`${uri`/v0/projects/${project.slug}/${name}`}?${query}`);
  const chosen = new Set(list(name));
  const items = reply.ok ? reply.data : [];
  show(
    h`${items.length ? '' : h`<p class="muted">No ${name} found.</p>`}${items.map(
      (item) =>
        h`<label><input type="checkbox" data-dimension="${name}" value="${item.uuid}" data-head="${item.head?.uuid ?? ''}" ${raw(chosen.has(item.uuid) ? 'checked' : '')}> ${item.name}${item.archived ? ' (archived)' : ''}</label>`,
    )}${pager(reply.total || 0, page, PER_PAGE, `${name}_page`)}`,
    section.querySelector('.items'),
  );
  section.querySelector('.items').classList.remove('muted');
}

function toggle(name, uuid, head, on) {
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
  const changes = { [name]: chosen.join(','), report: null, clear: true };
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

function shareHtml(project) {
  const query = perfQuery();
  const image = `${location.origin}${uri`/v0/projects/${project.slug}/perf/img`}?${query}`;
  const page = `${location.origin}${uri`/perf/${project.slug}`}?${query}`;
  const snippet = `<a href="${page}"><img src="${image}" alt="${project.name} benchmarks"></a>`;
  return h`<details><summary>Share and embed</summary><p><a href="${image}" data-testid="png">PNG of this plot</a> · <a href="${page}">Public link</a></p>
<label>Embed snippet <textarea readonly rows="3" cols="80" data-testid="embed">${snippet}</textarea></label></details>`;
}

function pinHtml() {
  return h`<details><summary>Pin this plot to the dashboard</summary><form id="pin" class="row">
<label>Title <input name="title" maxlength="64"></label>
<label>Window <select name="window"><option value="2419200">4 weeks</option><option value="4838400">8 weeks</option><option value="7257600">12 weeks</option><option value="31536000">1 year</option></select></label>
<label>Rank <input name="rank" type="number" min="1" max="64" value="64"></label><button class="primary">Pin</button></form></details>`;
}

const perfPath = (project) => `${uri`/v0/projects/${project.slug}/perf`}?${perfQuery()}`;

/** Whether the view names every dimension within the permutation limit, so that it is asked for. */
const askable = () => DIMENSIONS.every(([name]) => list(name).length) && permutations() <= MAX_PERMUTATIONS;

/**
 * The perf answer of `path`. The shell preloads a public view's answer, asked without credentials (the
 * same for everyone), while the modules load; only the very same request picks it up.
 */
async function perfReply(path) {
  const preloads = document.querySelectorAll('link[rel="preload"][as="fetch"]');
  if (![...preloads].some((link) => link.getAttribute('href') === path)) return get(path);
  const response = await fetch(path);
  return { ok: response.ok, status: response.status, data: await response.json().catch(() => null) };
}

/** Draws the view; `pending` is its perf answer when already asked for. */
async function drawView(project, base, pending) {
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
  const points = perf.results.reduce((n, result) => n + result.metrics.length, 0);
  if (!points) {
    show(h`<p class="muted" data-testid="plot-empty">No data found for this view.</p>`, target);
    show(raw(''), alerts);
    return;
  }
  const p = params();
  const started = performance.now();
  drawPlot(target, perf, {
    xAxis: p.get('x_axis') === 'version' ? 'version' : 'date_time',
    yAxis: p.get('y_axis') ?? 'auto',
    lowerValue: p.get('lower_value') === 'true',
    upperValue: p.get('upper_value') === 'true',
    lowerBoundary: p.get('lower_boundary') === 'true',
    upperBoundary: p.get('upper_boundary') === 'true',
    width: Math.max(280, target.clientWidth - 8),
    base,
  });
  target.dataset.points = String(points);
  target.dataset.drawMs = String(Math.round(performance.now() - started));
  const active = perf.results.flatMap((result) =>
    result.metrics.filter((m) => m.alert?.status === 'active').map((m) => ({ result, metric: m })),
  );
  const changes = perf.results.flatMap((result) => (result.change_points ?? []).map((change) => ({ result, change })));
  show(
    h`${
      active.length
        ? h`<h3>🚨 Active alerts on this plot</h3><ul>${active.map(
            ({ result, metric }) =>
              h`<li><a href="${base}${uri`/alerts/${metric.alert.uuid}`}">${result.benchmark.name} · ${result.measure.name} at ${metric.start_time}: ${metric.metric.value}</a></li>`,
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

/** The explorer page of `project`; `base` is `/perf/{slug}` or `/console/projects/{slug}`. */
export async function perfPage(project, base) {
  if (params().get('clear') !== 'true' && DIMENSIONS.every(([name]) => !list(name).length)) await coldStart(project);
  // The plot's data is asked for before anything else the page waits on.
  const first = askable() ? perfReply(perfPath(project)) : undefined;
  const manage = Boolean(session()) && (await allowed(uri`/v0/projects/${project.slug}/allowed/manage`));
  const render = async (pending) => {
    show(h`<section><div class="row"><h2 style="margin:0">${project.name}</h2><a href="${base}/plots">Dashboard</a><a href="${base}/reports">Reports</a><a href="${base}/alerts">Alerts</a></div>
${controlsHtml()}<div id="plot" data-testid="plot"></div><div id="plot-alerts"></div>${shareHtml(project)}${manage ? pinHtml() : ''}</section>
<div class="grid">${DIMENSIONS.map(([name, title]) => pickerHtml(name, title))}</div>`);
    await Promise.all([drawView(project, base, pending), ...DIMENSIONS.map(([name]) => fillPicker(project, name))]);
  };
  await render(first);
  const app = $('#app');
  app.addEventListener('change', async (event) => {
    const input = event.target;
    if (input.dataset.dimension) toggle(input.dataset.dimension, input.value, input.dataset.head, input.checked);
    else if (input.name === 'archived') {
      const name = input.closest('.picker').dataset.dimension;
      setParams({ [`${name}_archived`]: input.checked ? 'true' : null, [`${name}_page`]: null });
    } else if (input.name === 'x_axis' || input.name === 'y_axis') setParams({ [input.name]: input.value });
    else if (input.name === 'start_time' || input.name === 'end_time') {
      const ms = input.valueAsNumber;
      setParams({
        [input.name]: Number.isFinite(ms) ? ms + (input.name === 'end_time' ? 86_399_999 : 0) : null,
        clear: true,
      });
    } else if (FLAGS.some(([flag]) => flag === input.name)) setParams({ [input.name]: input.checked ? 'true' : null });
    else return;
    await render();
  });
  let typing;
  app.addEventListener('input', (event) => {
    const input = event.target;
    if (input.name !== 'search') return;
    const name = input.closest('.picker').dataset.dimension;
    clearTimeout(typing);
    typing = setTimeout(() => {
      setParams({ [`${name}_search`]: input.value, [`${name}_page`]: null }, false);
      fillPicker(project, name);
    }, 250);
  });
  app.addEventListener('click', async (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.clear)
      setParams({
        [button.dataset.clear]: null,
        ...(button.dataset.clear === 'branches' ? { heads: null } : {}),
        clear: true,
      });
    else if (!turnPage(event)) return;
    await render();
  });
  app.addEventListener('submit', async (event) => {
    if (event.target.id !== 'pin') return;
    event.preventDefault();
    const form = new FormData(event.target);
    const p = params();
    const body = {
      title: form.get('title') || null,
      window: Number(form.get('window')),
      index: Math.max(0, Number(form.get('rank') || 64) - 1),
      x_axis: p.get('x_axis') === 'version' ? 'version' : 'date_time',
      y_axis: ['linear', 'log'].includes(p.get('y_axis')) ? p.get('y_axis') : 'auto',
      ...Object.fromEntries(FLAGS.map(([flag]) => [flag, p.get(flag) === 'true'])),
      ...Object.fromEntries(DIMENSIONS.map(([name]) => [name, list(name)])),
    };
    const reply = await api('POST', uri`/v0/projects/${project.slug}/plots`, body);
    if (!reply.ok) return notify(`Failed to pin the plot: ${reply.data?.message ?? reply.status}`, 'error');
    location.href = uri`/console/projects/${project.slug}/plots?notify_text=${'Plot pinned.'}`;
  });
  window.addEventListener('popstate', () => render());
}
