import { type Html, html } from '@atrium/core';

/** Characters of JSON shown at most for one value (attributes and extras of a node included). */
export const MAX_JSON_CHARS = 100_000;
const MAX_ROWS = 500;
const MAX_DEPTH = 3;

/** Pretty JSON, cut at `max` characters with a note of how much was left out. */
export function jsonText(value: unknown, max = MAX_JSON_CHARS): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function cell(value: unknown, depth: number): Html {
  if (isObject(value) && depth < MAX_DEPTH && Object.keys(value).length > 0) return valueTable(value, depth + 1);
  if (typeof value === 'string') return html`${value.length > 2000 ? `${value.slice(0, 2000)}…` : value}`;
  return html`<code>${jsonText(value, 2000)}</code>`;
}

/** A dictionary as a key/value table, nested dictionaries as nested tables (a few levels deep, bounded rows). */
export function valueTable(values: Record<string, unknown>, depth = 0): Html {
  const keys = Object.keys(values);
  const rows = keys
    .slice(0, MAX_ROWS)
    .map((key) => html`<tr><th scope="row">${key}</th><td>${cell(values[key], depth)}</td></tr>`);
  const more = keys.length > MAX_ROWS ? html`<tr><td colspan="2">… ${keys.length - MAX_ROWS} more keys</td></tr>` : '';
  return html`<table class="dict">${rows}${more}</table>`;
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
