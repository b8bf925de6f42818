import { type Html, html } from '@atrium/core';
import type { RepositoryTree } from '../wire/repository-tree.js';
import { MAX_LISTED, PREVIEW_BYTES, repositoryEntries } from './repository-files.js';
import { browsePage } from './shell.js';
import { byteSize, fileHref, nodeHref } from './values.js';

export type FileView =
  | { kind: 'directory'; tree: RepositoryTree }
  | { kind: 'file'; size: number | undefined; text: string | undefined; truncated: boolean };

export interface FilePageInput {
  source: string;
  uuid: string;
  /** The node's caption (label or class). */
  caption: string;
  path: string;
  view: FileView;
  sizeOf(key: string): number | undefined;
}

function body(input: FilePageInput): Html {
  const { source, uuid, path, view } = input;
  if (view.kind === 'directory') {
    const entries = repositoryEntries(view.tree, MAX_LISTED, path);
    const rows = entries.map((e) => {
      const size = e.key === undefined ? undefined : input.sizeOf(e.key);
      return html`<tr><td style="padding-left:${0.5 + e.depth * 1.25}rem"><a href="${fileHref(source, uuid, e.path)}">${e.path.split('/').pop()}${e.key === undefined ? '/' : ''}</a></td><td>${size === undefined ? '' : byteSize(size)}</td></tr>`;
    });
    return html`<section><table class="files"><tbody>${rows}</tbody></table>${entries.length ? '' : html`<p class="muted">Empty directory.</p>`}</section>`;
  }
  const download = html`<a class="button primary" href="${fileHref(source, uuid, path, true)}" download>Download${view.size === undefined ? '' : ` (${byteSize(view.size)})`}</a>`;
  if (view.text === undefined) {
    return html`<section><p>This file is not text; it is not shown here.</p>${download}</section>`;
  }
  const note = view.truncated
    ? html`<p class="notice">The first ${byteSize(PREVIEW_BYTES)} are shown; download the file for the rest.</p>`
    : '';
  return html`<section><div class="row">${download}</div>${note}<pre class="file">${view.text}</pre></section>`;
}

export function filePage(input: FilePageInput): string {
  const list = `/browse/${encodeURIComponent(input.source)}/nodes`;
  return browsePage(
    input.path,
    [
      { label: 'Sources', href: '/' },
      { label: input.source, href: list },
      { label: `${input.caption} (${input.uuid.slice(0, 8)})`, href: nodeHref(input.source, input.uuid) },
      { label: input.path },
    ],
    html`<h1><code>${input.path}</code></h1>${body(input)}`,
  );
}

export function errorPage(status: number, message: string): string {
  const title = status === 404 ? 'Not found' : status === 503 ? 'Try again' : 'Cannot show this';
  return browsePage(
    title,
    [{ label: 'Sources', href: '/' }, { label: title }],
    html`<h1>${title}</h1><section class="error" role="alert"><p>${message}</p></section>`,
  );
}
