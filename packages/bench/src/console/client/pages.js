// Project pages: dashboard of pinned plots, reports, alerts, thresholds, dimensions, keys and settings.
import { api, failure, get, session } from './api.js';
import { $, date, h, notify, pager, params, raw, setParams, show } from './dom.js';
import { drawPlot } from './plot.js';

const PER_PAGE = 20;
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

/** A paginated list page: `row` renders one item as table cells. */
async function listPage(title, path, head, row, { archived = false, extra = '' } = {}) {
  const p = params();
  const page = Number(p.get('page') ?? 1) || 1;
  const query = new URLSearchParams({ per_page: String(PER_PAGE), page: String(page) });
  for (const name of ['search', 'archived', 'start_time', 'end_time', 'branch', 'testbed'])
    if (p.get(name)) query.set(name, p.get(name));
  const reply = await get(`${path}?${query}`);
  if (!reply.ok)
    return show(
      h`<section class="error" role="alert">Failed to fetch ${title.toLowerCase()}: ${failure(reply)}</section>`,
      $('#content'),
    );
  const filters = archived
    ? h`<label><input type="checkbox" id="archived" ${raw(p.get('archived') === 'true' ? 'checked' : '')}> Show archived</label>`
    : '';
  show(
    h`<section><div class="row"><h2>${title}</h2>${filters}${extra}</div>${
      reply.data.length
        ? h`<table data-testid="list"><tr>${head.map((cell) => h`<th>${cell}</th>`)}</tr>${reply.data.map((item) => h`<tr>${row(item)}</tr>`)}</table>`
        : h`<p class="muted">No ${title.toLowerCase()} found.</p>`
    }${pager(reply.total || 0, page, PER_PAGE)}</section>`,
    $('#content'),
  );
  $('#content').onchange = (event) => {
    if (event.target.id === 'archived') {
      setParams({ archived: event.target.checked ? 'true' : null, page: null });
      listPage(title, path, head, row, { archived, extra });
    }
  };
  $('#content').onclick = (event) => {
    const button = event.target.closest('button[data-page]');
    if (!button) return;
    setParams({ page: button.dataset.page });
    listPage(title, path, head, row, { archived, extra });
  };
  return reply;
}

const alertsSummary = (report) => (report.alerts?.length ? `🚨 ${report.alerts.length}` : '');

export const reportsPage = (project, base) =>
  listPage(
    'Reports',
    `/v0/projects/${project.slug}/reports`,
    ['Started', 'Branch', 'Testbed', 'Adapter', 'Alerts'],
    (r) =>
      h`<td><a href="${base}/reports/${r.uuid}">${date(r.start_time)}</a></td><td>${r.branch.name}</td><td>${r.testbed.name}</td><td>${r.adapter}</td><td>${alertsSummary(r)}</td>`,
  );

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

export async function reportPage(project, base, uuid) {
  const reply = await get(`/v0/projects/${project.slug}/reports/${uuid}`);
  if (!reply.ok) return show(h`<section data-testid="not-found"><h2>Report Not Found</h2></section>`, $('#content'));
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
<td>${alert ? h`<a href="${base}/alerts/${alert.uuid}">🚨 ${alert.status}</a>` : m.threshold ? 'ok' : h`<span class="muted">no threshold</span>`}</td>
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
    `/v0/projects/${project.slug}/alerts`,
    ['Status', 'Benchmark', 'Branch', 'Testbed', 'Measure', 'Created'],
    (a) =>
      h`<td>${alertStatus(a)}</td><td><a href="${base}/alerts/${a.uuid}">${a.benchmark.name}</a></td><td>${a.threshold.branch.name}</td><td>${a.threshold.testbed.name}</td><td>${a.threshold.measure.name}</td><td>${date(a.created)}</td>`,
    { archived: true, extra: dismissAll },
  );
  $('#dismiss-all')?.addEventListener('click', async () => {
    const all = await get(`/v0/projects/${project.slug}/alerts?per_page=255&status=active`);
    for (const alert of all.data ?? [])
      await api('PATCH', `/v0/projects/${project.slug}/alerts/${alert.uuid}`, { status: 'dismissed' });
    location.reload();
  });
}

export async function alertPage(project, base, uuid, editable) {
  const reply = await get(`/v0/projects/${project.slug}/alerts/${uuid}`);
  if (!reply.ok) return show(h`<section data-testid="not-found"><h2>Alert Not Found</h2></section>`, $('#content'));
  const a = reply.data;
  const t = a.threshold;
  const action = a.status === 'active' ? ['dismissed', 'Dismiss'] : ['active', 'Reactivate'];
  show(
    h`<section><div class="row"><h2>Alert: ${a.benchmark.name}</h2>${alertStatus(a)}${editable ? h`<button type="button" id="alert-status" data-status="${action[0]}">${action[1]}</button>` : ''}</div>
<table><tr><th>Status</th><td data-testid="alert-status">${a.status}</td></tr><tr><th>Report</th><td><a href="${base}/reports/${a.report}">${a.report}</a></td></tr>
<tr><th>Branch</th><td>${t.branch.name}</td></tr><tr><th>Testbed</th><td>${t.testbed.name}</td></tr><tr><th>Measure</th><td>${t.measure.name}</td></tr>
<tr><th>Value</th><td>${a.metric.value}</td></tr><tr><th>Violated limit</th><td>${a.limit} (${a.limit === 'lower' ? a.boundary.lower_limit : a.boundary.upper_limit})</td></tr>
<tr><th>Baseline</th><td>${a.boundary.baseline}</td></tr><tr><th>Model</th><td>${t.model?.test ?? '—'}</td></tr><tr><th>Created</th><td>${date(a.created)}</td></tr></table></section>`,
    $('#content'),
  );
  $('#alert-status')?.addEventListener('click', async (event) => {
    const done = await api('PATCH', `/v0/projects/${project.slug}/alerts/${uuid}`, {
      status: event.target.dataset.status,
    });
    if (!done.ok) return notify(`Failed to update the alert: ${failure(done)}`, 'error');
    alertPage(project, base, uuid, editable);
  });
}

export const thresholdsPage = (project) =>
  listPage(
    'Thresholds',
    `/v0/projects/${project.slug}/thresholds`,
    ['Branch', 'Testbed', 'Measure', 'Model', 'Boundaries', 'Sample size', 'Window'],
    (
      t,
    ) => h`<td>${t.branch.name}</td><td>${t.testbed.name}</td><td>${t.measure.name}</td><td>${t.model?.test ?? 'No model'}</td>
<td>${t.model?.lower_boundary ?? '—'} / ${t.model?.upper_boundary ?? '—'}</td><td>${t.model?.min_sample_size ?? '—'} – ${t.model?.max_sample_size ?? '—'}</td><td>${t.model?.window ?? '—'}</td>`,
    { archived: true },
  );

export const dimensionsPage = (project, base, kind) =>
  listPage(
    kind[0].toUpperCase() + kind.slice(1),
    `/v0/projects/${project.slug}/${kind}`,
    ['Name', 'Slug', 'Archived'],
    (d) =>
      h`<td><a href="${base}/${kind}/${d.slug}">${d.name}</a></td><td>${d.slug}</td><td>${d.archived ? date(d.archived) : ''}</td>`,
    { archived: true },
  );

export async function dimensionPage(project, base, kind, id, editable) {
  const path = `/v0/projects/${project.slug}/${kind}/${id}`;
  const reply = await get(path);
  if (!reply.ok)
    return show(h`<section data-testid="not-found"><h2>${DIMENSIONS[kind]} Not Found</h2></section>`, $('#content'));
  const d = reply.data;
  show(
    h`<section><div class="row"><h2>${DIMENSIONS[kind]}: ${d.name}</h2>${
      editable
        ? h`<button type="button" id="archive" data-archived="${d.archived ? 'false' : 'true'}">${d.archived ? 'Unarchive' : 'Archive'}</button>`
        : ''
    }</div>${d.archived ? h`<p class="notice" role="status">This ${DIMENSIONS[kind].toLowerCase()} was archived on ${date(d.archived)}.</p>` : ''}
<table><tr><th>Name</th><td>${d.name}</td></tr><tr><th>Slug</th><td>${d.slug}</td></tr><tr><th>UUID</th><td>${d.uuid}</td></tr>${
      d.units ? h`<tr><th>Units</th><td>${d.units}</td></tr>` : ''
    }${d.head ? h`<tr><th>Head</th><td>${d.head.uuid}${d.head.start_point ? h` (start point: version ${d.head.start_point.version?.number ?? ''})` : ''}</td></tr>` : ''}</table></section>`,
    $('#content'),
  );
  $('#archive')?.addEventListener('click', async (event) => {
    const done = await api('PATCH', path, { archived: event.target.dataset.archived === 'true' });
    if (!done.ok) return notify(`Failed to update: ${failure(done)}`, 'error');
    dimensionPage(project, base, kind, id, editable);
  });
}

/** The pinned-plots dashboard: each card draws the plot's last `window` seconds on the branch's current head. */
export async function dashboardPage(project, base, editable) {
  const reply = await get(`/v0/projects/${project.slug}/plots?per_page=64`);
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
      const data = await get(`/v0/projects/${project.slug}/perf?${query}`);
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
    const path = `/v0/projects/${project.slug}/plots/${card.dataset.plot}`;
    const done =
      button.dataset.unpin !== undefined
        ? await api('DELETE', path)
        : await api('PATCH', path, { index: Number(button.dataset.move) });
    if (!done.ok) return notify(`Failed to update the dashboard: ${failure(done)}`, 'error');
    dashboardPage(project, base, editable);
  };
}

export async function settingsPage(project) {
  show(
    h`<section><h2>Project settings</h2><form id="project-settings"><label>Name <input name="name" value="${project.name}" required maxlength="64"></label>
<label>URL <input name="url" type="url" value="${project.url ?? ''}"></label>
<label>Visibility <select name="visibility"><option ${raw(project.visibility === 'public' ? 'selected' : '')}>public</option><option ${raw(project.visibility === 'private' ? 'selected' : '')}>private</option></select></label>
<button class="primary">Save</button></form></section>
<section><h2>Delete project</h2><p>All reports, metrics and thresholds of this project are deleted.</p>
<label>Type the project's slug to confirm <input id="confirm-delete" autocomplete="off"></label><button type="button" id="delete-project" disabled>Delete</button></section>`,
    $('#content'),
  );
  $('#project-settings').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const done = await api('PATCH', `/v0/projects/${project.slug}`, {
      name: form.get('name'),
      url: form.get('url') || null,
      visibility: form.get('visibility'),
    });
    notify(done.ok ? 'Project saved.' : `Failed to save: ${failure(done)}`, done.ok ? 'ok' : 'error');
  };
  $('#confirm-delete').oninput = (event) => {
    $('#delete-project').disabled = event.target.value !== project.slug;
  };
  $('#delete-project').onclick = async () => {
    const done = await api('DELETE', `/v0/projects/${project.slug}`);
    if (done.ok) location.href = '/console';
    else notify(`Failed to delete: ${failure(done)}`, 'error');
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
    const done = await api('DELETE', `${path}/${uuid}`);
    if (!done.ok) return notify(`Failed to revoke: ${failure(done)}`, 'error');
    keysPage(path, title);
  };
}

export async function membersPage(org) {
  const reply = await get(`/v0/organizations/${org}/members?per_page=100`);
  show(
    h`<section><h2>Members</h2>${reply.ok ? h`<table><tr><th>Name</th><th>Email</th><th>Role</th></tr>${reply.data.map((m) => h`<tr><td>${m.name}</td><td>${m.email}</td><td>${m.role}</td></tr>`)}</table>` : h`<p class="error">${failure(reply)}</p>`}
<form id="invite" class="row"><label>Email <input name="email" type="email" required></label><label>Role <select name="role"><option>leader</option></select></label><button class="primary">Invite</button></form></section>`,
    $('#content'),
  );
  $('#invite').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const done = await api('POST', `/v0/organizations/${org}/members`, {
      email: form.get('email'),
      role: form.get('role'),
    });
    notify(done.ok ? 'Invitation sent.' : `Failed to invite: ${failure(done)}`, done.ok ? 'ok' : 'error');
  };
}

export async function userSettingsPage() {
  const user = session().user;
  show(
    h`<section><h2>Account</h2><table><tr><th>Name</th><td>${user.name}</td></tr><tr><th>Slug</th><td>${user.slug}</td></tr><tr><th>Email</th><td>${user.email}</td></tr></table>
<p><a href="/console/users/${user.slug}/keys">API keys</a> · <a href="/auth/logout">Log out</a></p></section>`,
    $('#content'),
  );
}
