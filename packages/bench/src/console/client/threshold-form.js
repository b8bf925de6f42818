// The threshold create and edit forms. The rules are the server's own: `model.js` is the bench service's
// compiled `boundary/model.js`, served as is, so the form refuses exactly what the API would.
import { api, failure, get } from './api.js';
import { $, h, notFound, notify, params, raw, show, uri } from './dom.js';
import { modelProblem } from './model.js';

/** Bencher's order and names; t-test is the default. */
export const TESTS = [
  ['percentage', 'Percentage'],
  ['z_score', 'z-score'],
  ['t_test', 't-test'],
  ['log_normal', 'Log Normal'],
  ['iqr', 'Interquartile Range (IQR)'],
  ['delta_iqr', 'Delta Interquartile Range (ΔIQR)'],
  ['static', 'Static'],
  ['change_point', 'Change point (Atrium extension)'],
];

/** What a boundary means for each test: help text and placeholder. */
const BOUNDARY = {
  static: ['an absolute value (any number)', '100'],
  percentage: ['a decimal fraction ≥ 0 (0.50 is 50 %)', '0.50'],
  z_score: ['a confidence in [0.5, 1): lower is stricter, higher is looser', '0.98'],
  t_test: ['a confidence in [0.5, 1): lower is stricter, higher is looser', '0.98'],
  log_normal: ['a confidence in [0.5, 1): lower is stricter, higher is looser', '0.98'],
  iqr: ['an IQR multiplier ≥ 0', '3.0'],
  delta_iqr: ['a ΔIQR multiplier ≥ 0', '3.0'],
  change_point: [
    'a confidence in [0.5, 1) that a persistent change is real: upper alerts on increases, lower on decreases',
    '0.99',
  ],
};

const MODEL_FIELDS = ['lower_boundary', 'upper_boundary', 'min_sample_size', 'max_sample_size', 'window'];

const field = (name, label, value, help, placeholder, step) =>
  h`<div><label>${label} <input type="number" name="${name}" step="${step}" placeholder="${placeholder}" value="${value ?? ''}" aria-describedby="${name}-help"></label><br><small class="muted" id="${name}-help">${help}</small></div>`;

/** The inputs of one test, filled from `initial` when it is a model of that test. */
function modelFields(test, initial) {
  const value = (name) => (initial?.test === test ? initial[name] : null);
  const [meaning, placeholder] = BOUNDARY[test];
  const boundaries = h`${field('lower_boundary', 'Lower boundary', value('lower_boundary'), meaning, placeholder, 'any')}${field('upper_boundary', 'Upper boundary', value('upper_boundary'), meaning, placeholder, 'any')}`;
  if (test === 'static') return h`<div class="row">${boundaries}</div>`;
  const least = test === 'percentage' ? 1 : 2;
  return h`<div class="row">${boundaries}</div><div class="row">${field('min_sample_size', 'Minimum sample size', value('min_sample_size'), `optional, an integer ≥ ${least}`, '2', '1')}${field('max_sample_size', 'Maximum sample size', value('max_sample_size'), `optional, an integer ≥ ${least}`, '64', '1')}${field('window', 'Window (seconds)', value('window'), 'optional, an integer ≥ 1', '525600', '1')}</div>`;
}

/** The model the form holds and why it is invalid (the server's words), if it is. */
function readModel(form) {
  const model = { test: form.elements.test.value };
  for (const name of MODEL_FIELDS) {
    const input = form.elements[name];
    if (input?.validity.badInput) return { model, problem: `${name} must be a number` };
    model[name] = input && input.value.trim() !== '' ? Number(input.value) : null;
  }
  return { model, problem: modelProblem(model) };
}

/** `test` and the fields that are set: the flattened model Bencher's API takes. */
const flattened = (model) => Object.fromEntries(Object.entries(model).filter(([, value]) => value !== null));

const options = (items, selected) =>
  items.map(
    (item) =>
      h`<option value="${item.uuid}" ${raw(item.slug === selected || item.uuid === selected ? 'selected' : '')}>${item.name}</option>`,
  );

const DIMENSION_FIELDS = [
  ['branch', 'branches', 'Branch'],
  ['testbed', 'testbeds', 'Testbed'],
  ['measure', 'measures', 'Measure'],
];

const firstPage = (project, kind, search = '') =>
  get(
    `${uri`/v0/projects/${project.slug}/${kind}`}?per_page=255${search ? `&search=${encodeURIComponent(search)}` : ''}`,
  );

/** A select per dimension (its first 255 items) with a search box that refills it, for projects with more. */
async function dimensionSelects(project) {
  const lists = await Promise.all(DIMENSION_FIELDS.map(([, kind]) => firstPage(project, kind)));
  const p = params();
  return h`<div class="row">${DIMENSION_FIELDS.map(
    ([name, kind, label], i) =>
      h`<label>${label} <select name="${name}" required>${options(lists[i].data ?? [], p.get(name))}</select></label><input type="search" data-search="${kind}" aria-label="Search ${kind}" placeholder="search ${kind}">`,
  )}</div>`;
}

/** Refills a dimension's select from its search box, keeping the choice when it is still listed. */
async function searchDimension(project, form, input) {
  const [name, kind] = DIMENSION_FIELDS.find(([, plural]) => plural === input.dataset.search);
  const search = input.value.trim();
  const reply = await firstPage(project, kind, search);
  // Only the answer to what the box still says (answers to earlier keystrokes may arrive later).
  if (input.value.trim() === search)
    show(h`${options(reply.data ?? [], form.elements[name].value)}`, form.elements[name]);
}

/**
 * `/thresholds/add` (no `threshold`) posts a new threshold; `/thresholds/{t}/edit` replaces the model with a
 * PUT, starting from the current one.
 */
export async function thresholdFormPage(project, base, uuid) {
  const path = uri`/v0/projects/${project.slug}/thresholds`;
  const current = uuid ? await get(path + uri`/${uuid}`) : undefined;
  if (current && !current.ok) return notFound('Threshold');
  const threshold = current?.data;
  const initial = threshold?.model ?? null;
  const test = initial?.test ?? 't_test';
  show(
    h`<section><h2>${threshold ? h`Edit threshold model: ${threshold.branch.name} | ${threshold.testbed.name} | ${threshold.measure.name}` : 'Add threshold'}</h2>
<form id="threshold-form" novalidate>${threshold ? '' : await dimensionSelects(project)}
<label>Threshold model <select name="test">${TESTS.map(([value, label]) => h`<option value="${value}" ${raw(value === test ? 'selected' : '')}>${label}</option>`)}</select></label>
<div id="model-fields">${modelFields(test, initial)}</div>
<p id="model-problem" class="error" role="alert" data-testid="model-problem" hidden></p>
<div class="row"><button class="primary" id="save-threshold">${threshold ? 'Save model' : 'Create threshold'}</button><a href="${threshold ? base + uri`/thresholds/${threshold.uuid}` : `${base}/thresholds`}">Cancel</a></div></form></section>`,
    $('#content'),
  );
  const form = $('#threshold-form');
  // The submit button waits for a valid model; the reason shows once the user has typed (or edits a model).
  let touched = Boolean(initial);
  const check = () => {
    const { problem } = readModel(form);
    const box = $('#model-problem');
    box.hidden = !problem || !touched;
    box.textContent = problem ?? '';
    $('#save-threshold').disabled = Boolean(problem);
    return problem;
  };
  form.addEventListener('change', (event) => {
    if (event.target.dataset.search) return;
    touched = true;
    if (event.target.name === 'test') show(modelFields(event.target.value, initial), $('#model-fields'));
    check();
  });
  form.addEventListener('input', (event) => {
    if (event.target.dataset.search) return searchDimension(project, form, event.target);
    touched = true;
    check();
  });
  check();
  form.onsubmit = async (event) => {
    event.preventDefault();
    if (check()) return;
    const model = flattened(readModel(form).model);
    const done = threshold
      ? await api('PUT', path + uri`/${threshold.uuid}`, model)
      : await api('POST', path, {
          branch: form.elements.branch.value,
          testbed: form.elements.testbed.value,
          measure: form.elements.measure.value,
          ...model,
        });
    if (!done.ok) {
      const message = `The server refused the threshold: ${failure(done)}`;
      $('#model-problem').hidden = false;
      $('#model-problem').textContent = message;
      return notify(message, 'error');
    }
    location.href =
      base +
      uri`/thresholds/${done.data.uuid}?notify_text=${threshold ? 'Threshold model saved.' : 'Threshold created.'}`;
  };
}
