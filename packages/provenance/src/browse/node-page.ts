import { type Html, html } from '@atrium/core';
import type { LinkedNode } from '../storage/aiida/browse.js';
import { CALCJOB_NODE_TYPE, classNameOf, derivedProperties } from '../wire/node-types.js';
import type { RepositoryTree } from '../wire/repository-tree.js';
import { dimensionality, hillFormula, structureOf } from '../wire/structure.js';
import { graphSvg, nodeCaption } from './graph-svg.js';
import type { NodeView } from './node-view.js';
import { plotSvg } from './plot-svg.js';
import { countEntries, MAX_LISTED, repositoryEntries } from './repository-files.js';
import { browsePage } from './shell.js';
import { MAX_DRAWN_SITES, structureSvg } from './structure-svg.js';
import { byteSize, fileHref, isoTime, jsonText, nodeHref, valueTable } from './values.js';

const apiRoot = (source: string) => `/${encodeURIComponent(source)}/api/v4`;

function linksTable(view: NodeView, links: LinkedNode[], total: number, direction: 'incoming' | 'outgoing'): Html {
  if (!links.length) return html`<p class="muted">None.</p>`;
  const rows = links.map((l) => {
    const [first, second] = nodeCaption(l);
    return html`<tr><td>${l.link_label}</td><td>${l.link_type}</td><td><a href="${nodeHref(view.source, l.uuid)}">${first}</a>${second ? html` <span class="muted">${second}</span>` : ''}</td><td><code>${l.uuid.slice(0, 8)}</code></td></tr>`;
  });
  const api = `${apiRoot(view.source)}/nodes/${view.node.uuid}/links/${direction}/`;
  const more =
    total > links.length
      ? html`<p class="muted">The first ${links.length} of ${total.toLocaleString('en-US')} links; all of them: <a href="${api}">${api}</a></p>`
      : '';
  return html`<table><thead><tr><th scope="col">Link label</th><th scope="col">Link type</th><th scope="col">Node</th><th scope="col">UUID</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
}

function filesTable(view: NodeView, uuid: string, tree: RepositoryTree): Html {
  const entries = repositoryEntries(tree);
  if (!entries.length) return html`<p class="muted">No files.</p>`;
  const rows = entries.map((e) => {
    const size = e.key === undefined ? undefined : view.sizeOf(e.key);
    const name = html`<span style="padding-left:${e.depth * 1.25}rem">${e.path.split('/').pop()}${e.key === undefined ? '/' : ''}</span>`;
    return html`<tr><td><a href="${fileHref(view.source, uuid, e.path)}">${name}</a></td><td>${size === undefined ? '' : byteSize(size)}</td><td>${e.key !== undefined ? html`<a href="${fileHref(view.source, uuid, e.path, true)}" download>download</a>` : ''}</td></tr>`;
  });
  const cut = countEntries(tree) > MAX_LISTED ? html`<p class="muted">The first ${MAX_LISTED} entries.</p>` : '';
  return html`<table class="files"><thead><tr><th scope="col">File</th><th scope="col">Size</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>${cut}`;
}

function filesSections(view: NodeView): Html {
  const { node } = view;
  if (node.node_type === CALCJOB_NODE_TYPE) {
    const remote = typeof node.attributes.remote_workdir === 'string' ? node.attributes.remote_workdir : undefined;
    return html`<section id="files"><h2>Input files</h2>${filesTable(view, node.uuid, node.repository_metadata)}
<h2>Output files (retrieved)</h2>${view.retrieved ? html`<p class="muted">From the retrieved folder <a href="${nodeHref(view.source, view.retrieved.uuid)}"><code>${view.retrieved.uuid.slice(0, 8)}</code></a>.</p>${filesTable(view, view.retrieved.uuid, view.retrieved.tree)}` : html`<p class="muted">This calculation has no retrieved folder.</p>`}
${remote ? html`<h2>Remote folder</h2><p><code>${remote}</code>${view.computer ? ` on ${view.computer}` : ''} (on the computer, not in the archive).</p>` : ''}</section>`;
  }
  if (!Object.keys(node.repository_metadata.o ?? {}).length) return html``;
  return html`<section id="files"><h2>Repository files</h2>${filesTable(view, node.uuid, node.repository_metadata)}</section>`;
}

function structureSection(view: NodeView): Html {
  const { node } = view;
  const structure = structureOf(node.attributes);
  const dim = dimensionality(structure);
  const download = (format: string) =>
    html`<a class="button" href="${apiRoot(view.source)}/nodes/${node.uuid}/download/?download_format=${format}">${format.toUpperCase()}</a>`;
  const formula = hillFormula(structure);
  return html`<section id="structure"><h2>Structure <span class="formula">${formula}</span></h2>
<div class="row">${structureSvg(structure)}<dl class="facts"><dt>Formula</dt><dd>${formula}</dd><dt>Sites</dt><dd>${structure.sites.length}${structure.sites.length > MAX_DRAWN_SITES ? ` (the first ${MAX_DRAWN_SITES} drawn)` : ''}</dd>
<dt>Kinds</dt><dd>${structure.kinds.map((k) => k.name).join(', ')}</dd><dt>Periodic</dt><dd>${structure.pbc.map((p) => (p ? 'yes' : 'no')).join(', ')}</dd>
${dim.label ? html`<dt>${dim.label[0]?.toUpperCase()}${dim.label.slice(1)}</dt><dd>${dim.value.toFixed(3)} Å${dim.dim > 1 ? html`<sup>${dim.dim}</sup>` : ''}</dd>` : ''}
<dt>Cell (Å)</dt><dd><code>${structure.cell.map((v) => `[${v.map((x) => x.toFixed(4)).join(', ')}]`).join(' ')}</code></dd>
<dt>Download</dt><dd class="row">${download('cif')}${download('xsf')}${download('xyz')}</dd></dl></div></section>`;
}

/** A rich view of malformed data (attributes AiiDA would not have written) is left out, not a failed page. */
function richSection(view: NodeView): Html {
  try {
    return richView(view);
  } catch {
    return html`<section><p class="muted">This node's data could not be drawn; its attributes are below.</p></section>`;
  }
}

function richView(view: NodeView): Html {
  const { node } = view;
  const cls = classNameOf(node.node_type);
  const a = node.attributes;
  if (cls === 'StructureData') return structureSection(view);
  if (view.arrays) {
    const arrays = view.arrays.map(
      (v) =>
        html`<h3>${v.name} <span class="muted">(${v.shape.join(' × ')})</span></h3>${v.plot ? plotSvg(v.plot) : html`<p class="muted">${v.note}</p>`}`,
    );
    const json = `${apiRoot(view.source)}/nodes/${node.uuid}/download/?download_format=json`;
    const derived = cls === 'KpointsData' ? derivedProperties(node.node_type, a) : {};
    return html`<section id="arrays"><h2>Arrays</h2>${Object.keys(derived).length ? valueTable(derived) : ''}${arrays}<p><a href="${json}">Download as JSON</a></p></section>`;
  }
  if (cls === 'Dict') return html`<section id="dict"><h2>Dictionary</h2>${valueTable(a)}</section>`;
  if (cls === 'List' && Array.isArray(a.list))
    return html`<section><h2>List</h2><pre>${jsonText(a.list)}</pre></section>`;
  if ('value' in a && ['Int', 'Float', 'Str', 'Bool'].includes(cls)) {
    return html`<section id="value"><h2>Value</h2><p class="value"><code>${jsonText(a.value)}</code></p></section>`;
  }
  return html``;
}

function facts(view: NodeView): Html {
  const { node } = view;
  const state = [node.attributes.process_state, node.attributes.exit_status].filter((v) => v !== undefined);
  return html`<dl class="facts"><dt>Type</dt><dd><code>${node.node_type}</code></dd>
${node.process_type ? html`<dt>Process type</dt><dd><code>${node.process_type}</code></dd>` : ''}
<dt>Label</dt><dd>${node.label || html`<span class="muted">(none)</span>`}</dd>
${node.description ? html`<dt>Description</dt><dd>${node.description}</dd>` : ''}
${state.length ? html`<dt>State</dt><dd>${String(node.attributes.process_state ?? '')}${node.attributes.exit_status !== undefined ? ` (exit status ${String(node.attributes.exit_status)})` : ''}</dd>` : ''}
<dt>UUID</dt><dd><code>${node.uuid}</code> (pk ${node.id})</dd><dt>Created</dt><dd>${isoTime(node.ctime)}</dd><dt>Modified</dt><dd>${isoTime(node.mtime)}</dd>
<dt>User</dt><dd>${view.user}</dd>${view.computer !== undefined ? html`<dt>Computer</dt><dd>${view.computer}</dd>` : ''}
<dt>API</dt><dd><a href="${apiRoot(view.source)}/nodes/${node.uuid}/">${apiRoot(view.source)}/nodes/${node.uuid}/</a></dd></dl>`;
}

function collapsible(title: string, values: Record<string, unknown>, id: string): Html {
  const count = Object.keys(values).length;
  return html`<details id="${id}"><summary>${title} (${count} ${count === 1 ? 'key' : 'keys'})</summary>${count ? valueTable(values) : html`<p class="muted">None.</p>`}</details>`;
}

export function nodePage(view: NodeView): string {
  const { node } = view;
  const [caption] = nodeCaption(node);
  const logs = view.logs
    ? html`<section id="report"><h2>Report</h2>${view.logs.length ? html`<table><tbody>${view.logs.map((l) => html`<tr><td>${isoTime(l.time)}</td><td>${l.levelname}</td><td><pre>${l.message}</pre></td></tr>`)}</tbody></table>` : html`<p class="muted">No log messages.</p>`}</section>`
    : '';
  const comments = view.comments.length
    ? html`<section id="comments"><h2>Comments</h2>${view.comments.map((c) => html`<p><strong>${c.author}</strong> <span class="muted">${isoTime(c.ctime)}</span><br>${c.content}</p>`)}</section>`
    : '';
  const href = (uuid: string) => nodeHref(view.source, uuid);
  const cls = classNameOf(node.node_type);
  const body = html`<h1>${caption}${caption !== cls ? html` <span class="muted">${cls}</span>` : ''}</h1>
<section>${facts(view)}</section>
<section id="graph"><h2>Provenance</h2><p class="muted">Inputs on the left, outputs on the right; select a node to open it.</p>${graphSvg(view.graph, href)}</section>
${richSection(view)}
<section id="contents">${collapsible('Attributes', node.attributes, 'attributes')}${collapsible('Extras', node.extras, 'extras')}</section>
${logs}${comments}${filesSections(view)}
<section id="incoming"><h2>Incoming links (${view.totals.incoming.toLocaleString('en-US')})</h2>${linksTable(view, view.incoming, view.totals.incoming, 'incoming')}</section>
<section id="outgoing"><h2>Outgoing links (${view.totals.outgoing.toLocaleString('en-US')})</h2>${linksTable(view, view.outgoing, view.totals.outgoing, 'outgoing')}</section>`;
  const list = `/browse/${encodeURIComponent(view.source)}/nodes`;
  return browsePage(
    `${caption} (${node.uuid.slice(0, 8)})`,
    [
      { label: 'Sources', href: '/' },
      { label: view.source, href: list },
      { label: classNameOf(node.node_type), href: `${list}?node_type=${encodeURIComponent(node.node_type)}` },
      { label: node.uuid.slice(0, 8) },
    ],
    body,
  );
}
