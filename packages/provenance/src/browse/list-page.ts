import { type Html, html } from '@atrium/core';
import type { NodeSummary } from '../storage/aiida/browse.js';
import { nodeCaption } from './graph-svg.js';
import { type ListFilters, listHref, PAGE_SIZE } from './list-filters.js';
import { browsePage } from './shell.js';
import type { TypeTreeNode } from './type-tree.js';
import { isoTime, nodeHref } from './values.js';

export interface ListRow extends NodeSummary {
  ctime: Date;
}

export interface NodeListView {
  source: string;
  filters: ListFilters;
  errors: string[];
  tree: TypeTreeNode[];
  /** Where the selected type sits in the tree (empty when none). */
  selected: TypeTreeNode[];
  total: number;
  rows: ListRow[];
}

function typeTree(view: NodeListView, nodes: readonly TypeTreeNode[], base: string): Html {
  const items = nodes.map((n) => {
    const selected = view.selected[view.selected.length - 1] === n;
    const open = view.selected.includes(n);
    const href = listHref(base, view.filters, { nodeType: n.nodeType, processType: n.processType, page: 1 });
    const link = html`<a href="${href}"${selected ? html` class="selected" aria-current="true"` : ''}>${n.label}</a> <span class="muted">${n.count.toLocaleString('en-US')}</span>`;
    if (!n.children.length) return html`<li>${link}</li>`;
    return html`<li><details${open ? ' open' : ''}><summary>${link}</summary>${typeTree(view, n.children, base)}</details></li>`;
  });
  return html`<ul>${items}</ul>`;
}

function pager(view: NodeListView, base: string): Html {
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const { page } = view.filters;
  const first = view.total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(view.total, page * PAGE_SIZE);
  const to = (n: number, text: string) =>
    html`<a class="button" href="${listHref(base, view.filters, { page: n })}">${text}</a>`;
  return html`<div class="row"><span>${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${view.total.toLocaleString('en-US')} nodes (page ${page} of ${pages.toLocaleString('en-US')})</span>${page > 1 ? to(page - 1, '← Newer') : ''}${page < pages ? to(page + 1, 'Older →') : ''}</div>`;
}

export function nodeListPage(view: NodeListView): string {
  const base = `/browse/${encodeURIComponent(view.source)}/nodes`;
  const f = view.filters;
  const keep = [
    f.nodeType ? html`<input type="hidden" name="node_type" value="${f.nodeType}">` : '',
    f.processType !== undefined ? html`<input type="hidden" name="process_type" value="${f.processType}">` : '',
  ];
  const form = html`<form class="filters" method="get" action="${base}">${keep}
<label>Label contains <input name="label" value="${f.label}" maxlength="200"></label>
<label>Created from <input type="date" name="from" value="${f.from}"></label>
<label>to <input type="date" name="to" value="${f.to}"></label>
<button type="submit" class="primary">Filter</button> <a href="${base}">Clear all</a></form>`;
  const errors = view.errors.length
    ? html`<section class="error" role="alert"><ul>${view.errors.map((e) => html`<li>${e}</li>`)}</ul></section>`
    : '';
  const rows = view.rows.map((r) => {
    const [first, second] = nodeCaption(r);
    return html`<tr><td><a href="${nodeHref(view.source, r.uuid)}">${first}</a>${second ? html` <span class="muted">${second}</span>` : ''}</td>
<td><code>${r.node_type}</code>${r.process_type ? html`<div class="muted">${r.process_type}</div>` : ''}</td><td>${isoTime(r.ctime)}</td><td><code>${r.uuid.slice(0, 8)}</code></td></tr>`;
  });
  const selected = view.selected[view.selected.length - 1];
  const heading = selected ? `${selected.label} nodes` : 'All nodes';
  const body = html`<h1>${heading} <span class="muted">in ${view.source}</span></h1>${errors}
<div class="columns"><section class="types" aria-label="Node types"><h2>Types</h2><ul><li><a href="${listHref(base, f, { nodeType: '', processType: undefined, page: 1 })}"${selected ? '' : html` class="selected"`}>All types</a></li></ul>${typeTree(view, view.tree, base)}</section>
<div><section>${form}</section><section>${pager(view, base)}
<table class="nodes"><thead><tr><th scope="col">Node</th><th scope="col">Type</th><th scope="col">Created</th><th scope="col">UUID</th></tr></thead><tbody>${rows}</tbody></table>
${view.rows.length === 0 ? html`<p>No node matches these filters.</p>` : ''}</section></div></div>`;
  return browsePage(
    heading,
    [{ label: 'Sources', href: '/' }, { label: view.source, href: base }, { label: 'Nodes' }],
    body,
  );
}
