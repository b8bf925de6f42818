// The pinned-plots dashboard: each card draws the plot's last `window` seconds on the branches' current heads,
// opens in the explorer, and (for editors) moves, unpins, and changes its title and window.
import type { JsonPerf, JsonPlot, JsonProject } from '../../wire/types.js';
import { api, failure, get } from './api.js';
import { $, h, notify, raw, show, uri } from './dom.js';
import { perfBase } from './pages.js';
import { drawPlot } from './plot.js';

/** The windows a pin offers, in seconds. */
export const WINDOWS: readonly [number, string][] = [
  [604_800, '1 week'],
  [2_419_200, '4 weeks'],
  [4_838_400, '8 weeks'],
  [7_257_600, '12 weeks'],
  [31_536_000, '1 year'],
];

export const windowOptions = (selected: number) =>
  h`${WINDOWS.some(([seconds]) => seconds === selected) ? '' : h`<option value="${selected}" selected>${selected} s</option>`}${WINDOWS.map(
    ([seconds, label]) =>
      h`<option value="${seconds}" ${raw(seconds === selected ? 'selected' : '')}>${label}</option>`,
  )}`;

const FLAGS = ['lower_value', 'upper_value', 'lower_boundary', 'upper_boundary'] as const;

/** The explorer's query for a pinned plot now: its dimensions (the branches' current heads) over its window. */
export function plotQuery(plot: JsonPlot, now = Date.now()): URLSearchParams {
  const query = new URLSearchParams({
    plot: plot.uuid,
    branches: plot.branches.join(','),
    testbeds: plot.testbeds.join(','),
    benchmarks: plot.benchmarks.join(','),
    measures: plot.measures.join(','),
    start_time: String(Math.max(0, now - plot.window * 1000)),
    end_time: String(now),
    x_axis: plot.x_axis,
    y_axis: plot.y_axis,
    clear: 'true',
  });
  for (const flag of FLAGS) if (plot[flag]) query.set(flag, 'true');
  return query;
}

const perfApiQuery = (query: URLSearchParams) => {
  const api = new URLSearchParams();
  for (const key of ['branches', 'testbeds', 'benchmarks', 'measures', 'start_time', 'end_time'])
    api.set(key, query.get(key) ?? '');
  return api;
};

const editForm = (plot: JsonPlot) =>
  h`<form class="row" data-edit hidden><label>Title <input name="title" maxlength="64" value="${plot.title ?? ''}"></label>
<label>Window <select name="window">${windowOptions(plot.window)}</select></label><button class="primary">Save</button></form>`;

function card(plot: JsonPlot, i: number, count: number, base: string, editable: boolean) {
  const open = `${perfBase(base)}?${plotQuery(plot)}`;
  return h`<section class="pinned" data-plot="${plot.uuid}"><div class="row"><span class="badge">${i + 1}</span><h3>${plot.title ?? 'Untitled plot'}</h3><a href="${open}" data-testid="open-plot">Open in perf</a>${
    editable
      ? h`<button type="button" data-move="${i - 1}" aria-label="Move up" ${raw(i === 0 ? 'disabled' : '')}>▲</button><button type="button" data-move="${i + 1}" aria-label="Move down" ${raw(i === count - 1 ? 'disabled' : '')}>▼</button><button type="button" data-toggle-edit>Edit</button><button type="button" data-unpin>Unpin</button>`
      : ''
  }</div>${editable ? editForm(plot) : ''}<div class="plot" data-testid="pinned-plot"><p class="muted">Loading…</p></div></section>`;
}

async function drawCard(project: JsonProject, base: string, plot: JsonPlot) {
  const target = $(`[data-plot="${plot.uuid}"] .plot`);
  const data = await get<JsonPerf>(`${uri`/v0/projects/${project.slug}/perf`}?${perfApiQuery(plotQuery(plot))}`);
  const points = data.ok ? data.data.results.reduce((n, r) => n + r.metrics.length, 0) : 0;
  if (!data.ok || !points) return show(h`<p class="muted">No data in this window.</p>`, target);
  target.dataset.points = String(points);
  drawPlot(target, data.data, {
    xAxis: plot.x_axis === 'version' ? 'version' : 'date_time',
    yAxis: plot.y_axis,
    lowerValue: plot.lower_value,
    upperValue: plot.upper_value,
    lowerBoundary: plot.lower_boundary,
    upperBoundary: plot.upper_boundary,
    width: Math.max(260, target.clientWidth - 8),
    height: 260,
    base,
  });
}

/** The dashboard, or (with `only`) one pinned plot. */
export async function dashboardPage(
  project: JsonProject,
  base: string,
  editable: boolean,
  only?: string,
): Promise<void> {
  const reply = await get<JsonPlot[]>(uri`/v0/projects/${project.slug}/plots?per_page=64`);
  const all = reply.ok ? reply.data : [];
  const plots = only ? all.filter((plot) => plot.uuid === only) : all;
  const perf = perfBase(base);
  show(
    h`<section><div class="row"><h2>${only ? 'Pinned plot' : 'Dashboard'}</h2>${only ? h`<a href="${base}/plots">All pinned plots</a>` : ''}<a href="${perf}">Perf plot</a></div>${
      plots.length
        ? ''
        : h`<p class="muted">${only ? 'This pinned plot does not exist.' : h`This project has no pinned plots. Open the <a href="${perf}">perf plot</a> and pin one.`}</p>`
    }</section><div class="grid" data-testid="dashboard">${plots.map((plot) => card(plot, all.indexOf(plot), all.length, base, editable))}</div>`,
    $('#content'),
  );
  const again = () => dashboardPage(project, base, editable, only);
  const pathOf = (element: Element) =>
    uri`/v0/projects/${project.slug}/plots/${(element.closest('[data-plot]') as HTMLElement).dataset.plot}`;
  $('#content').onclick = async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button');
    if (!button?.closest('[data-plot]') || button.closest('form')) return;
    if (button.dataset.toggleEdit !== undefined) {
      const form = (button.closest('[data-plot]') as HTMLElement).querySelector<HTMLFormElement>('[data-edit]');
      if (form) form.hidden = !form.hidden;
      return;
    }
    const done =
      button.dataset.unpin !== undefined
        ? await api('DELETE', pathOf(button))
        : await api('PATCH', pathOf(button), { index: Number(button.dataset.move) });
    if (!done.ok) return notify(`Failed to update the dashboard: ${failure(done)}`, 'error');
    again();
  };
  $('#content').onsubmit = async (event) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const fields = new FormData(form);
    const title = String(fields.get('title')).trim();
    const done = await api('PATCH', pathOf(form), { title: title || null, window: Number(fields.get('window')) });
    if (!done.ok) return notify(`Failed to update the plot: ${failure(done)}`, 'error');
    notify('Pinned plot updated.');
    again();
  };
  // The buttons work while the plots load.
  await Promise.all(plots.map((plot) => drawCard(project, base, plot)));
}
