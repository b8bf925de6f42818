import { type Html, html } from '@atrium/core';

/** Characters of JSON shown at most for one value (attributes and extras of a node included). */
export const MAX_JSON_CHARS = 100_000;
/** Rows of all the tables of one value together (nested tables share it). */
const MAX_ROWS = 1000;
const MAX_DEPTH = 3;

/** Pretty JSON, cut at `max` characters with a note of how much was left out. */
export function jsonText(value: unknown, max = MAX_JSON_CHARS): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function cell(value: unknown, depth: number, budget: { rows: number }): Html {
  if (isObject(value) && depth < MAX_DEPTH && Object.keys(value).length > 0) return table(value, depth + 1, budget);
  if (typeof value === 'string') return html`${value.length > 2000 ? `${value.slice(0, 2000)}…` : value}`;
  return html`<code>${jsonText(value, 2000)}</code>`;
}

function table(values: Record<string, unknown>, depth: number, budget: { rows: number }): Html {
  const keys = Object.keys(values);
  const shown = keys.slice(0, Math.max(0, budget.rows));
  budget.rows -= shown.length;
  const rows = shown.map(
    (key) => html`<tr><th scope="row">${key}</th><td>${cell(values[key], depth, budget)}</td></tr>`,
  );
  const left = keys.length - shown.length;
  const more = left > 0 ? html`<tr><td colspan="2">… ${left} more keys</td></tr>` : '';
  return html`<table class="dict">${rows}${more}</table>`;
}

/** A dictionary as a key/value table, nested dictionaries as nested tables (a few levels, 1,000 rows in all). */
export function valueTable(values: Record<string, unknown>): Html {
  return table(values, 0, { rows: MAX_ROWS });
}

export const isoTime = (date: Date): string =>
  date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The URL path of a node page, and of its repository files (each path segment encoded). */
export const nodeHref = (source: string, uuid: string) => `/browse/${encodeURIComponent(source)}/nodes/${uuid}`;
export const fileHref = (source: string, uuid: string, path: string, raw = false) =>
  `${nodeHref(source, uuid)}/${raw ? 'raw' : 'files'}/${path.split('/').map(encodeURIComponent).join('/')}`;
