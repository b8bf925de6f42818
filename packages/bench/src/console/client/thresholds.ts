// Thresholds: the list, and one threshold with its current (or a past, `?model=`) model and the model history.
import type { JsonModel, JsonProject, JsonThreshold } from '../../wire/types.js';
import { allowed, api, failure, get, type Reply } from './api.js';
import { deleteButton, wireDelete } from './confirm.js';
import { $, date, h, notFound, notify, pager, params, raw, show, turnPage, uri } from './dom.js';
import { listPage } from './list.js';
import { TESTS } from './threshold-form.js';

const HISTORY_PER_PAGE = 10;
const testName = (test: string) => TESTS.find(([value]) => value === test)?.[1] ?? test;
const shown = (value: unknown) => value ?? '—';

export const thresholdsPage = (project: JsonProject, base: string, editable: boolean) =>
  listPage<JsonThreshold>(
    'Thresholds',
    uri`/v0/projects/${project.slug}/thresholds`,
    ['Branch', 'Testbed', 'Measure', 'Model', 'Boundaries', 'Sample size', 'Window'],
    (t) =>
      h`<td><a href="${base}${uri`/thresholds/${t.uuid}`}">${t.branch.name}</a></td><td>${t.testbed.name}</td><td>${t.measure.name}</td><td>${t.model ? testName(t.model.test) : 'No model'}</td>
<td>${shown(t.model?.lower_boundary)} / ${shown(t.model?.upper_boundary)}</td><td>${shown(t.model?.min_sample_size)} – ${shown(t.model?.max_sample_size)}</td><td>${shown(t.model?.window)}</td>`,
    { archived: true, extra: editable ? h`<a class="button" href="${base}/thresholds/add">Add threshold</a>` : '' },
  );

const modelRows = (m: JsonModel | null) =>
  h`<tr><th>Threshold model</th><td data-testid="model-test">${m ? testName(m.test) : 'No model'}</td></tr>${
    m
      ? h`<tr><th>Lower boundary</th><td>${shown(m.lower_boundary)}</td></tr><tr><th>Upper boundary</th><td>${shown(m.upper_boundary)}</td></tr>
<tr><th>Minimum sample size</th><td>${shown(m.min_sample_size)}</td></tr><tr><th>Maximum sample size</th><td>${shown(m.max_sample_size)}</td></tr>
<tr><th>Window (seconds)</th><td>${shown(m.window)}</td></tr><tr><th>Model created</th><td>${date(m.created)}</td></tr>`
      : ''
  }`;

const historyPage = () => Number(params().get('models_page') ?? 1) || 1;

/** The model history section of `reply`, the answer to `…/models` at `historyPage()`. */
function historySection(reply: Reply<JsonModel[]>, base: string, threshold: JsonThreshold, viewed: string | undefined) {
  if (!reply.ok) return h`<p class="error">Failed to fetch the model history: ${failure(reply)}</p>`;
  return h`<section><h3>Model history</h3><table data-testid="models"><tr><th>Model</th><th>Boundaries</th><th>Sample size</th><th>Window</th><th>Created</th><th>Replaced</th><th></th></tr>${reply.data.map(
    (m) =>
      h`<tr${raw(m.uuid === viewed ? ' aria-current="true"' : '')}><td>${testName(m.test)}</td><td>${shown(m.lower_boundary)} / ${shown(m.upper_boundary)}</td>
<td>${shown(m.min_sample_size)} – ${shown(m.max_sample_size)}</td><td>${shown(m.window)}</td><td>${date(m.created)}</td><td>${m.replaced ? date(m.replaced) : h`<span class="badge active">current</span>`}</td>
<td>${m.uuid === viewed ? 'viewing' : h`<a href="${base}${uri`/thresholds/${threshold.uuid}`}${m.replaced ? `?model=${encodeURIComponent(m.uuid)}` : ''}">View</a>`}</td></tr>`,
  )}</table>${reply.data.length ? '' : h`<p class="muted">This threshold never had a model.</p>`}${pager(reply.total || 0, historyPage(), HISTORY_PER_PAGE, 'models_page')}</section>`;
}

export async function thresholdPage(
  project: JsonProject,
  base: string,
  uuid: string,
  editable: boolean,
): Promise<void> {
  const path = uri`/v0/projects/${project.slug}/thresholds/${uuid}`;
  const modelParam = params().get('model');
  const [reply, models, deletable] = await Promise.all([
    get<JsonThreshold>(`${path}${modelParam ? `?model=${encodeURIComponent(modelParam)}` : ''}`),
    get<JsonModel[]>(`${path}/models?per_page=${HISTORY_PER_PAGE}&page=${historyPage()}`),
    editable && allowed(uri`/v0/projects/${project.slug}/allowed/delete`),
  ]);
  if (!reply.ok) return notFound('Threshold');
  const t = reply.data;
  const past = Boolean(t.model?.replaced);
  const history = historySection(models, base, t, t.model?.uuid);
  show(
    h`<section><div class="row"><h2>${t.branch.name} | ${t.testbed.name} | ${t.measure.name}</h2>${
      editable && !past ? h`<a class="button" href="${base}${uri`/thresholds/${t.uuid}/edit`}">Edit model</a>` : ''
    }${editable && !past && t.model ? h`<button type="button" id="remove-model">Remove model</button>` : ''}</div>${
      past
        ? h`<p class="notice" role="status" data-testid="replaced">This threshold model was replaced on ${date(t.model?.replaced)}. <a href="${base}${uri`/thresholds/${t.uuid}`}">View the current threshold</a></p>`
        : ''
    }${t.model ? '' : h`<p class="notice" role="status">This threshold has no model: it computes no boundaries and raises no alerts.</p>`}
<table data-testid="threshold"><tr><th>UUID</th><td>${t.uuid}</td></tr><tr><th>Branch</th><td><a href="${base}${uri`/branches/${t.branch.slug}`}">${t.branch.name}</a></td></tr>
<tr><th>Testbed</th><td><a href="${base}${uri`/testbeds/${t.testbed.slug}`}">${t.testbed.name}</a></td></tr><tr><th>Measure</th><td><a href="${base}${uri`/measures/${t.measure.slug}`}">${t.measure.name}</a></td></tr>
${modelRows(t.model)}</table></section>${history}${
      deletable
        ? h`<section><h3>Delete</h3>${deleteButton('Delete threshold', 'All reports that use this threshold must be deleted first.')}</section>`
        : ''
    }`,
    $('#content'),
  );
  const again = () => thresholdPage(project, base, uuid, editable);
  $('#remove-model')?.addEventListener('click', async () => {
    const done = await api('PUT', path, { test: null });
    if (!done.ok) return notify(`Failed to remove the model: ${failure(done)}`, 'error');
    notify('Model removed: this threshold raises no alerts until it gets a new one.');
    again();
  });
  $('#content').onclick = (event) => {
    if (turnPage(event)) again();
  };
  wireDelete($('#content'), async () => {
    const done = await api('DELETE', path);
    if (!done.ok) return notify(`Failed to delete the threshold: ${failure(done)}`, 'error');
    location.href = base + uri`/thresholds?notify_text=${'Threshold deleted.'}`;
  });
}
