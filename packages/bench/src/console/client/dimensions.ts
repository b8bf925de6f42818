// Branches, testbeds, benchmarks and measures: searchable lists with the archived filter; detail pages to edit,
// move a branch's start point, archive and delete.
import type {
  JsonBranch,
  JsonDimension,
  JsonMeasure,
  JsonProject,
  JsonReportSummary,
  JsonThreshold,
} from '../../wire/types.js';
import { allowed, api, failure, get } from './api.js';
import { deleteButton, wireDelete } from './confirm.js';
import { $, changedFields, date, h, notFound, notify, show, uri } from './dom.js';
import { listPage } from './list.js';
import { DIMENSIONS, type DimensionKind } from './pages.js';

/** Any of the four: a branch has a head, a measure units. */
type AnyDimension = JsonDimension & Partial<Pick<JsonBranch, 'head'> & Pick<JsonMeasure, 'units'>>;
type StartPoint = NonNullable<JsonBranch['head']['start_point']>;

const title = (kind: DimensionKind) => kind.charAt(0).toUpperCase() + kind.slice(1);

export const dimensionsPage = (project: JsonProject, base: string, kind: DimensionKind) =>
  listPage<JsonDimension>(
    title(kind),
    uri`/v0/projects/${project.slug}/${kind}`,
    ['Name', 'Slug', 'Archived'],
    (d) =>
      h`<td><a href="${base}${uri`/${kind}/${d.slug}`}">${d.name}</a></td><td>${d.slug}</td><td>${d.archived ? date(d.archived) : ''}</td>`,
    { archived: true, search: true },
  );

/** "branch name, version n (hash)" of a head's start point, linked to that branch. */
async function startPointText(project: JsonProject, base: string, start: StartPoint) {
  const from = await get<JsonBranch>(uri`/v0/projects/${project.slug}/branches/${start.branch}`);
  const name = from.ok ? from.data.name : start.branch;
  const version = start.version
    ? ` version ${start.version.number}${start.version.hash ? ` (${start.version.hash})` : ''}`
    : '';
  return h`<a href="${base}${uri`/branches/${from.ok ? from.data.slug : start.branch}`}">${name}</a>${version}`;
}

/** Which report and threshold filter names this kind of dimension. */
const FILTER: Partial<Record<DimensionKind, string>> = { branches: 'branch', testbeds: 'testbed', measures: 'measure' };

/** The dimension's recent reports (branches, testbeds) and its thresholds, as Bencher's detail pages show them. */
async function related(project: JsonProject, base: string, kind: DimensionKind, d: AnyDimension) {
  const key = FILTER[kind];
  if (!key) return '';
  const path = uri`/v0/projects/${project.slug}`;
  const archived = d.archived ? '&archived=true' : '';
  const [reports, thresholds] = await Promise.all([
    key === 'measure'
      ? undefined
      : get<JsonReportSummary[]>(`${path}/reports?per_page=4&${key}=${encodeURIComponent(d.uuid)}${archived}`),
    get<JsonThreshold[]>(`${path}/thresholds?per_page=8&${key}=${encodeURIComponent(d.name)}${archived}`),
  ]);
  const recent = reports?.ok
    ? h`<section><div class="row"><h3>Recent reports</h3><a href="${base}${uri`/reports?${key}=${d.slug}`}${archived}">All reports</a></div>${
        reports.data.length
          ? h`<table data-testid="recent-reports"><tr><th>Started</th><th>Branch</th><th>Testbed</th></tr>${reports.data.map(
              (r) =>
                h`<tr><td><a href="${base}${uri`/reports/${r.uuid}`}">${date(r.start_time)}</a></td><td>${r.branch.name}</td><td>${r.testbed.name}</td></tr>`,
            )}</table>`
          : h`<p class="muted">No reports yet.</p>`
      }</section>`
    : '';
  const limits = thresholds.ok
    ? h`<section><h3>Thresholds</h3>${
        thresholds.data.length
          ? h`<table data-testid="dimension-thresholds"><tr><th>Threshold</th><th>Model</th></tr>${thresholds.data.map(
              (t) =>
                h`<tr><td><a href="${base}${uri`/thresholds/${t.uuid}`}">${t.branch.name} | ${t.testbed.name} | ${t.measure.name}</a></td><td>${t.model?.test ?? 'No model'}</td></tr>`,
            )}</table>`
          : h`<p class="muted">No thresholds.</p>`
      }</section>`
    : '';
  return h`${recent}${limits}`;
}

const editForm = (kind: DimensionKind, d: AnyDimension) =>
  h`<section><h3>Edit</h3><form id="edit-dimension" class="row"><label>Name <input name="name" value="${d.name}" required></label>
<label>Slug <input name="slug" value="${d.slug}" required maxlength="64"></label>${
    kind === 'measures' ? h`<label>Units <input name="units" value="${d.units}" required maxlength="64"></label>` : ''
  }<button class="primary">Save</button></form></section>`;

const startPointForm = () =>
  h`<section><h3>Start point</h3><p class="muted">A new start point gives the branch a new head: its history starts from the start point's.</p>
<form id="start-point" class="row"><label>Start-point branch <input name="branch" required placeholder="main"></label>
<label>Hash (optional) <input name="hash" maxlength="64"></label><label>Max versions <input name="max_versions" type="number" min="1" value="255"></label>
<label><input type="checkbox" name="clone_thresholds"> Clone thresholds</label><label><input type="checkbox" name="reset"> Reset</label>
<button class="primary">Set start point</button></form></section>`;

export async function dimensionPage(
  project: JsonProject,
  base: string,
  kind: DimensionKind,
  id: string,
  editable: boolean,
): Promise<void> {
  const path = uri`/v0/projects/${project.slug}/${kind}/${id}`;
  const label = DIMENSIONS[kind];
  const [reply, deletable] = await Promise.all([
    get<AnyDimension>(path),
    editable && allowed(uri`/v0/projects/${project.slug}/allowed/delete`),
  ]);
  if (!reply.ok) return notFound(label);
  const d = reply.data;
  const [start, tables] = await Promise.all([
    d.head?.start_point ? startPointText(project, base, d.head.start_point) : '',
    related(project, base, kind, d),
  ]);
  show(
    h`<section><div class="row"><h2>${label}: ${d.name}</h2>${
      editable
        ? h`<button type="button" id="archive" data-archived="${d.archived ? 'false' : 'true'}">${d.archived ? 'Unarchive' : 'Archive'}</button>`
        : ''
    }</div>${d.archived ? h`<p class="notice" role="status">This ${label.toLowerCase()} was archived on ${date(d.archived)}.</p>` : ''}
<table data-testid="dimension"><tr><th>Name</th><td>${d.name}</td></tr><tr><th>Slug</th><td>${d.slug}</td></tr><tr><th>UUID</th><td>${d.uuid}</td></tr>${
      d.units ? h`<tr><th>Units</th><td>${d.units}</td></tr>` : ''
    }${d.head ? h`<tr><th>Head</th><td>${d.head.uuid}</td></tr><tr><th>Start point</th><td data-testid="start-point">${start || '—'}</td></tr>` : ''}</table></section>${tables}${
      editable ? h`${editForm(kind, d)}${kind === 'branches' ? startPointForm() : ''}` : ''
    }${
      deletable
        ? h`<section><h3>Delete</h3>${deleteButton(`Delete ${label.toLowerCase()}`, `Reports and thresholds that use this ${label.toLowerCase()} must be deleted first.`)}</section>`
        : ''
    }`,
    $('#content'),
  );
  const again = () => dimensionPage(project, base, kind, id, editable);
  $('#archive')?.addEventListener('click', async (event) => {
    const done = await api('PATCH', path, { archived: (event.target as HTMLElement).dataset.archived === 'true' });
    if (!done.ok) return notify(`Failed to update: ${failure(done)}`, 'error');
    again();
  });
  $('#edit-dimension')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = changedFields(event.target as HTMLFormElement, d);
    if (!Object.keys(body).length) return notify('Nothing changed.');
    const done = await api<AnyDimension>('PATCH', path, body);
    if (!done.ok) return notify(`Failed to update the ${label.toLowerCase()}: ${failure(done)}`, 'error');
    if (done.data.slug !== d.slug)
      return location.replace(base + uri`/${kind}/${done.data.slug}?notify_text=${`${label} updated.`}`);
    notify(`${label} updated.`);
    again();
  });
  $('#start-point')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const startPoint = {
      branch: String(form.get('branch')).trim(),
      hash: String(form.get('hash')).trim() || null,
      max_versions: Number(form.get('max_versions')) || null,
      clone_thresholds: form.get('clone_thresholds') === 'on',
      reset: form.get('reset') === 'on',
    };
    const done = await api('PATCH', path, { start_point: startPoint });
    if (!done.ok) return notify(`Failed to set the start point: ${failure(done)}`, 'error');
    notify('Start point set.');
    again();
  });
  wireDelete($('#content'), async () => {
    const done = await api('DELETE', path);
    if (!done.ok) return notify(`Failed to delete: ${failure(done)}`, 'error');
    location.href = base + uri`/${kind}?notify_text=${`${label} deleted.`}`;
  });
}
