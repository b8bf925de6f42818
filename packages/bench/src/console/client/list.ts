// Paginated list pages: page, search, archived and every filter control marked `data-param` live in the URL.
import { failure, get } from './api.js';
import { $, h, type Markup, pager, params, raw, setParams, show, turnPage } from './dom.js';

const PER_PAGE = 20;
const FILTERS = ['search', 'archived', 'start_time', 'end_time', 'branch', 'testbed'];
const DAY = 86_400_000;

/** A filter control's URL value: checkboxes `true` or nothing; a date input its day's first (or last) ms, UTC. */
function controlValue(input: HTMLInputElement): string | number | null {
  if (input.type === 'checkbox') return input.checked ? 'true' : null;
  if (input.type === 'date') {
    if (!input.value) return null;
    const midnight = Date.parse(`${input.value}T00:00:00Z`);
    return input.dataset.day === 'end' ? midnight + DAY - 1 : midnight;
  }
  return input.value.trim();
}

const searchBox = () =>
  h`<label>Search <input type="search" data-param="search" value="${params().get('search') ?? ''}"></label>`;

const archivedBox = () =>
  h`<label><input type="checkbox" id="archived" data-param="archived" ${raw(params().get('archived') === 'true' ? 'checked' : '')}> Show archived</label>`;

/**
 * A list page into `root` (default `#content`): `row` renders one item as table cells. Options: `search` and
 * `archived` add those controls, `filters()` more controls (with `data-param`, drawn from the URL at each
 * render), `extra` markup next to the title.
 */
export interface ListOptions {
  archived?: boolean;
  search?: boolean;
  filters?: () => Markup | '';
  extra?: Markup | '';
  root?: string;
}

export async function listPage<T>(
  title: string,
  path: string,
  head: readonly string[],
  row: (item: T) => Markup,
  options: ListOptions = {},
): Promise<T[] | undefined> {
  const { archived = false, search = false, filters = () => '', extra = '', root = '#content' } = options;
  const p = params();
  const page = Number(p.get('page') ?? 1) || 1;
  const query = new URLSearchParams({ per_page: String(PER_PAGE), page: String(page) });
  for (const name of FILTERS) {
    const value = p.get(name);
    if (value) query.set(name, value);
  }
  const reply = await get<T[]>(`${path}?${query}`);
  if (!reply.ok) {
    show(
      h`<section class="error" role="alert">Failed to fetch ${title.toLowerCase()}: ${failure(reply)}</section>`,
      $(root),
    );
    return undefined;
  }
  const more = filters();
  show(
    h`<section><div class="row"><h2>${title}</h2>${extra}</div>${
      search || archived || more
        ? h`<div class="row" role="search">${search ? searchBox() : ''}${more}${archived ? archivedBox() : ''}</div>`
        : ''
    }${
      reply.data.length
        ? h`<table data-testid="list"><tr>${head.map((cell) => h`<th>${cell}</th>`)}</tr>${reply.data.map((item) => h`<tr>${row(item)}</tr>`)}</table>`
        : h`<p class="muted">No ${title.toLowerCase()} found.</p>`
    }${pager(reply.total || 0, page, PER_PAGE)}</section>`,
    $(root),
  );
  const again = () => listPage(title, path, head, row, options);
  $(root).onchange = (event) => {
    const input = event.target as HTMLInputElement;
    const name = input.dataset.param;
    if (!name) return;
    setParams({ [name]: controlValue(input), page: null });
    again();
  };
  $(root).onclick = (event) => {
    if (turnPage(event)) again();
  };
  return reply.data;
}
