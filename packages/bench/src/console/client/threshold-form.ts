// The threshold create and edit forms. The rules are the server's own: `model.js` is the bench service's
// compiled `boundary/model.js`, served as is, so the form refuses exactly what the API would.
import type { JsonDimension, JsonModel, JsonProject, JsonThreshold } from '../../wire/types.js';
import { api, failure, get } from './api.js';
import { $, h, notFound, notify, params, raw, show, uri } from './dom.js';
import { type Model, type ModelTest, modelProblem } from './model.js';

/** Bencher's order and names; t-test is the default. */
export const TESTS: readonly [ModelTest, string][] = [
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
const BOUNDARY: Record<ModelTest, [string, string]> = {
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

const MODEL_FIELDS: readonly Exclude<keyof Model, 'test'>[] = [
  'lower_boundary',
  'upper_boundary',
  'min_sample_size',
  'max_sample_size',
  'window',
];

const field = (name: string, label: string, value: number | null, help: string, placeholder: string, step: string) =>
  h`<div><label>${label} <input type="number" name="${name}" step="${step}" placeholder="${placeholder}" value="${value ?? ''}" aria-describedby="${name}-help"></label><br><small class="muted" id="${name}-help">${help}</small></div>`;

/** The inputs of one test, filled from `initial` when it is a model of that test. */
function modelFields(test: ModelTest, initial: JsonModel | null) {
  const value = (name: (typeof MODEL_FIELDS)[number]) => (initial?.test === test ? initial[name] : null);
  const [meaning, placeholder] = BOUNDARY[test];
  const boundaries = h`${field('lower_boundary', 'Lower boundary', value('lower_boundary'), meaning, placeholder, 'any')}${field('upper_boundary', 'Upper boundary', value('upper_boundary'), meaning, placeholder, 'any')}`;
  if (test === 'static') return h`<div class="row">${boundaries}</div>`;
  const least = test === 'percentage' ? 1 : 2;
  return h`<div class="row">${boundaries}</div><div class="row">${field('min_sample_size', 'Minimum sample size', value('min_sample_size'), `optional, an integer ≥ ${least}`, '2', '1')}${field('max_sample_size', 'Maximum sample size', value('max_sample_size'), `optional, an integer ≥ ${least}`, '64', '1')}${field('window', 'Window (seconds)', value('window'), 'optional, an integer ≥ 1', '525600', '1')}</div>`;
}

/** The value of the form's control `name`. */
const controlValue = (form: HTMLFormElement, name: string) =>
  (form.elements.namedItem(name) as HTMLSelectElement).value;

const testOf = (form: HTMLFormElement) => controlValue(form, 'test') as ModelTest;

const itemsOf = (reply: Awaited<ReturnType<typeof firstPage>> | undefined) => (reply?.ok ? reply.data : []);

/** The model the form holds and why it is invalid (the server's words), if it is. */
function readModel(form: HTMLFormElement): { model: Model; problem: string | undefined } {
  const model: Model = {
    test: testOf(form),
    lower_boundary: null,
    upper_boundary: null,
    min_sample_size: null,
    max_sample_size: null,
    window: null,
  };
  for (const name of MODEL_FIELDS) {
    const input = form.elements.namedItem(name) as HTMLInputElement | null;
    if (input?.validity.badInput) return { model, problem: `${name} must be a number` };
    model[name] = input && input.value.trim() !== '' ? Number(input.value) : null;
  }
  return { model, problem: modelProblem(model) };
}

/** `test` and the fields that are set: the flattened model Bencher's API takes. */
const flattened = (model: Model) => Object.fromEntries(Object.entries(model).filter(([, value]) => value !== null));

const options = (items: JsonDimension[], selected: string | null) =>
  items.map(
    (item) =>
      h`<option value="${item.uuid}" ${raw(item.slug === selected || item.uuid === selected ? 'selected' : '')}>${item.name}</option>`,
  );

const DIMENSION_FIELDS: readonly [string, 'branches' | 'testbeds' | 'measures', string][] = [
  ['branch', 'branches', 'Branch'],
  ['testbed', 'testbeds', 'Testbed'],
  ['measure', 'measures', 'Measure'],
];

const firstPage = (project: JsonProject, kind: string, search = '') =>
  get<JsonDimension[]>(
    `${uri`/v0/projects/${project.slug}/${kind}`}?per_page=255${search ? `&search=${encodeURIComponent(search)}` : ''}`,
  );

/** A select per dimension (its first 255 items) with a search box that refills it, for projects with more. */
async function dimensionSelects(project: JsonProject) {
  const lists = await Promise.all(DIMENSION_FIELDS.map(([, kind]) => firstPage(project, kind)));
  const p = params();
  return h`<div class="row">${DIMENSION_FIELDS.map(
    ([name, kind, label], i) =>
      h`<label>${label} <select name="${name}" required>${options(itemsOf(lists[i]), p.get(name))}</select></label><input type="search" data-search="${kind}" aria-label="Search ${kind}" placeholder="search ${kind}">`,
  )}</div>`;
}

/** Refills a dimension's select from its search box, keeping the choice when it is still listed. */
async function searchDimension(project: JsonProject, form: HTMLFormElement, input: HTMLInputElement) {
  const found = DIMENSION_FIELDS.find(([, plural]) => plural === input.dataset.search);
  if (!found) return;
  const [name, kind] = found;
  const select = form.elements.namedItem(name) as HTMLSelectElement;
  const search = input.value.trim();
  const reply = await firstPage(project, kind, search);
  // Only the answer to what the box still says (answers to earlier keystrokes may arrive later).
  if (input.value.trim() === search) show(h`${options(itemsOf(reply), select.value)}`, select);
}

/**
 * `/thresholds/add` (no `threshold`) posts a new threshold; `/thresholds/{t}/edit` replaces the model with a
 * PUT, starting from the current one.
 */
export async function thresholdFormPage(project: JsonProject, base: string, uuid: string | undefined): Promise<void> {
  const path = uri`/v0/projects/${project.slug}/thresholds`;
  const current = uuid ? await get<JsonThreshold>(path + uri`/${uuid}`) : undefined;
  if (current && !current.ok) return notFound('Threshold');
  const threshold = current?.ok ? current.data : undefined;
  const initial = threshold?.model ?? null;
  const test = (initial?.test ?? 't_test') as ModelTest;
  show(
    h`<section><h2>${threshold ? h`Edit threshold model: ${threshold.branch.name} | ${threshold.testbed.name} | ${threshold.measure.name}` : 'Add threshold'}</h2>
<form id="threshold-form" novalidate>${threshold ? '' : await dimensionSelects(project)}
<label>Threshold model <select name="test">${TESTS.map(([value, label]) => h`<option value="${value}" ${raw(value === test ? 'selected' : '')}>${label}</option>`)}</select></label>
<div id="model-fields">${modelFields(test, initial)}</div>
<p id="model-problem" class="error" role="alert" data-testid="model-problem" hidden></p>
<div class="row"><button class="primary" id="save-threshold">${threshold ? 'Save model' : 'Create threshold'}</button><a href="${threshold ? base + uri`/thresholds/${threshold.uuid}` : `${base}/thresholds`}">Cancel</a></div></form></section>`,
    $('#content'),
  );
  const form = $<HTMLFormElement>('#threshold-form');
  // The submit button waits for a valid model; the reason shows once the user has typed (or edits a model).
  let touched = Boolean(initial);
  const check = () => {
    const { problem } = readModel(form);
    const box = $('#model-problem');
    box.hidden = !problem || !touched;
    box.textContent = problem ?? '';
    $<HTMLButtonElement>('#save-threshold').disabled = Boolean(problem);
    return problem;
  };
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.dataset.search) return;
    touched = true;
    if (target.name === 'test') show(modelFields(testOf(form), initial), $('#model-fields'));
    check();
  });
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.dataset.search) return searchDimension(project, form, target);
    touched = true;
    check();
  });
  check();
  form.onsubmit = async (event) => {
    event.preventDefault();
    if (check()) return;
    const model = flattened(readModel(form).model);
    const done = threshold
      ? await api<JsonThreshold>('PUT', path + uri`/${threshold.uuid}`, model)
      : await api<JsonThreshold>('POST', path, {
          branch: controlValue(form, 'branch'),
          testbed: controlValue(form, 'testbed'),
          measure: controlValue(form, 'measure'),
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
