import { Html, html, page } from '@atrium/core';

export interface ShellMeta {
  title: string;
  description?: string | undefined;
  /** The perf image of the view, for link previews. */
  image?: string | undefined;
  /** The perf answer the page will ask for, fetched while the modules load (a public view's, asked without credentials). */
  data?: string | undefined;
  /** The embeddable plot page (`/perf/{p}/embed`): no header, only the plot. */
  embed?: boolean | undefined;
}

/** The console's own rules on top of the Atrium stylesheet: the plot's tooltip and legend. */
const CONSOLE_STYLE =
  '.plot-tip{position:absolute;z-index:5;background:#fff;color:#1d2330;border:1px solid #8a93a3;border-radius:4px;padding:.4rem;font-size:.8rem;pointer-events:none;width:18rem;box-shadow:0 2px 6px #0003}.plot-tip table td,.plot-tip table th{padding:0 .3rem}.u-legend{text-align:left}.picker .items label{margin:.15rem 0}';

/**
 * The shell's scripts: uPlot, and the client entry with every module it imports statically preloaded, so
 * that they load side by side instead of one level of imports after another.
 */
const scripts = (modules: readonly string[]) =>
  html`<style>${new Html(CONSOLE_STYLE)}</style><link rel="stylesheet" href="/console/assets/uPlot.min.css">
<script src="/console/assets/uPlot.iife.min.js" defer></script>
${modules.map((name) => html`<link rel="modulepreload" href="/console/assets/${name}">`)}
<script type="module" src="/console/assets/app.js"></script>`;

/**
 * Every console page is this shell: the Atrium layout, the page's title and meta, and the client
 * modules (`modules`: the entry's static imports), which read the URL and draw the page from the `/v0`
 * API of the same origin.
 */
export function consoleShell(meta: ShellMeta, modules: readonly string[]): string {
  const head = html`${meta.description ? html`<meta name="description" content="${meta.description}">` : ''}${
    meta.image ? html`<meta property="og:image" content="${meta.image}">` : ''
  }${meta.data ? html`<link rel="preload" as="fetch" crossorigin href="${meta.data}">` : ''}${
    meta.embed ? html`<style>header,.skip{display:none}main{padding-top:0}</style>` : ''
  }${scripts(modules)}`;
  const nav = html`<nav id="nav" aria-label="Console"><a href="/perf">Projects</a></nav><span class="grow"></span><nav id="session" aria-label="Account"></nav>`;
  const body: Html = html`<div id="notice" role="status" aria-live="polite"></div><div id="app"><p class="muted">Loading…</p></div>
<noscript><section class="error">The console needs JavaScript.</section></noscript>`;
  return page(meta.title, body, { service: 'Atrium bench', home: '/', nav, head, wide: true });
}
