// Markup helpers: `h` escapes every interpolation unless it is already markup (`raw`, or another `h`).
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const esc = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

/** Markup to insert as it is. */
export interface Markup {
  markup: string;
}

export const raw = (text: string): Markup => ({ markup: text });

const render = (value: unknown): string => {
  if (value && typeof value === 'object' && 'markup' in value) return String(value.markup);
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return esc(value);
};

export function h(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] as string);
  return raw(out);
}

/** The element `selector` finds (the page's own markup: it is there). */
export const $ = <E extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document): E =>
  root.querySelector(selector) as E;

/** The element `selector` finds, if any. */
export const $maybe = <E extends HTMLElement = HTMLElement>(selector: string, root: ParentNode = document): E | null =>
  root.querySelector<E>(selector);

/** Replaces the page's main content. */
export function show(markup: Markup, root: HTMLElement = $('#app')): void {
  root.innerHTML = markup.markup;
}

/** The page content for a resource the API did not find (or does not show this user). */
export const notFound = (what: string): void =>
  show(h`<section data-testid="not-found"><h2>${what} Not Found</h2></section>`, $('#content'));

/** A status line at the top of the page (also from `notify_text` in the URL, as Bencher's links do). */
export function notify(text: string, kind: 'ok' | 'error' = 'ok'): void {
  show(
    h`<section class="${kind === 'ok' ? 'notice' : 'error'}" role="${kind === 'ok' ? 'status' : 'alert'}">${text}</section>`,
    $('#notice'),
  );
}

export const date = (value: string | null | undefined): string =>
  value ? new Date(value).toISOString().replace('T', ' ').slice(0, 19) : '—';

/** The form's fields whose trimmed value differs from `current`'s; the `nullable` ones are null when blank. */
export function changedFields(
  form: HTMLFormElement,
  current: object,
  nullable: readonly string[] = [],
): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const [name, value] of new FormData(form)) {
    const trimmed = String(value).trim();
    const next = nullable.includes(name) && trimmed === '' ? null : trimmed;
    if (next !== ((current as Record<string, unknown>)[name] ?? null)) body[name] = next;
  }
  return body;
}

/** `YYYY-MM-DD` of a time in ms (UTC), for date inputs. */
export const dayOf = (ms: string | number | null | undefined): string =>
  ms ? new Date(Number(ms)).toISOString().slice(0, 10) : '';

/** `.` and `..` stay dot segments however their dots are encoded (URL standard): they go double-encoded. */
const DOT_SEGMENT = /^\.\.?$/;

/**
 * A URL whose every interpolation is percent-encoded, so that it stays within its path segment (or query value):
 * uri`/v0/projects/${slug}/reports` never leaves the project, whatever the slug holds (`..` names no resource).
 */
export const uri = (strings: TemplateStringsArray, ...values: unknown[]): string =>
  strings.reduce((out, text, i) => {
    const value = String(values[i - 1]);
    return `${out}${DOT_SEGMENT.test(value) ? value.replaceAll('.', '%252E') : encodeURIComponent(value)}${text}`;
  });

export const params = () => new URLSearchParams(location.search);

/** Sets (or, for null/''/undefined, deletes) query parameters; `push` adds a history entry. */
export function setParams(changes: Record<string, string | number | boolean | null | undefined>, push = true): void {
  const next = params();
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') next.delete(name);
    else next.set(name, String(value));
  }
  const url = `${location.pathname}${next.size ? `?${next}` : ''}`;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

/** For a click on a `pager` button: puts its page in the URL and answers true. */
export function turnPage(event: Event): boolean {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-page]');
  if (!button) return false;
  setParams({ [button.dataset.pageName as string]: button.dataset.page });
  return true;
}

/** Pagination links for a list of `total` items. */
export function pager(total: number, page: number, perPage: number, name = 'page'): Markup {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last === 1) return raw('');
  const link = (p: number, label: string) =>
    p < 1 || p > last || p === page
      ? h`<span class="muted">${label}</span>`
      : h`<button type="button" data-page-name="${name}" data-page="${p}">${label}</button>`;
  return h`<nav class="row" aria-label="Pages">${link(page - 1, 'Previous')} <span>Page ${page} of ${last}</span> ${link(page + 1, 'Next')}</nav>`;
}
