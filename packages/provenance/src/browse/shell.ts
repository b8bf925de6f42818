import { Html, html, page } from '@atrium/core';

/** The browser's own rules on top of the shared Atrium stylesheet (graphs, structures, plots, file views). */
const BROWSE_STYLE = `
.crumbs{margin:.25rem 0 1rem}.crumbs a{margin-right:.25rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}dl.facts dt{color:#596272}dl.facts dd{margin:0;word-break:break-all}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f7f9;padding:.5rem;border-radius:4px;max-height:40rem;overflow:auto;font-size:.85rem}
table.dict th{width:1%;white-space:nowrap;color:#596272;font-weight:normal}table.dict table.dict{margin:0}
.types ul{list-style:none;padding-left:1rem;margin:0}.types>ul{padding-left:0}.types a.selected{font-weight:bold;color:#1d2330}
.columns{display:grid;grid-template-columns:minmax(14rem,20rem) 1fr;gap:1rem}
@media (max-width:50rem){.columns{grid-template-columns:1fr}}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}form.filters label{margin:0}
svg.graph .gnode rect{stroke-width:1.5}svg.graph text{font:12px system-ui,sans-serif;fill:#1d2330}svg.graph text.sub{font-size:10.5px;fill:#596272}
svg.graph .data rect{fill:#eef6ff;stroke:#1a4fb5}svg.graph .calculation rect{fill:#fff4e0;stroke:#a15c00}
svg.graph .workflow rect{fill:#f3effc;stroke:#5b3da8}svg.graph .centre rect{stroke:#1d2330;stroke-width:3}
svg.graph a:hover rect,svg.graph a:focus rect{stroke-width:3}svg.graph path.edge{fill:none;stroke:#8a93a3;stroke-width:1.3}
svg.graph text.more{font-size:11px;fill:#596272}
svg.structure .cell line{stroke:#596272;stroke-width:1.2}svg.structure circle{stroke:#1d2330;stroke-width:.8}
svg.structure text{font:bold 11px system-ui,sans-serif;text-anchor:middle;dominant-baseline:central;fill:#1d2330;paint-order:stroke;stroke:#fff;stroke-width:2.5px}
svg.plot text{font:11px system-ui,sans-serif;fill:#1d2330}svg.plot .ytick{text-anchor:end}svg.plot .xtick{text-anchor:middle}
svg.plot .frame{fill:none;stroke:#8a93a3}svg.plot .grid{stroke:#eef0f3}svg.plot .mark{stroke:#8a93a3;stroke-dasharray:3 3}
svg.plot polyline{fill:none;stroke-width:1.3}svg.plot .s0{stroke:#1a4fb5}svg.plot .s1{stroke:#a15c00}svg.plot .s2{stroke:#2b7a3d}
svg.plot .s3{stroke:#8a1111}svg.plot .s4{stroke:#5b3da8}svg.plot .s5{stroke:#596272}
svg{max-width:100%;height:auto}`;

export interface Crumb {
  label: string;
  href?: string;
}

/** A browser page in the Atrium layout: breadcrumbs (sources › source › …) and the body; no script at all. */
export function browsePage(title: string, crumbs: Crumb[], body: Html): string {
  const trail = html`<nav class="crumbs" aria-label="Breadcrumbs">${crumbs.map((c, i) =>
    c.href
      ? html`<a href="${c.href}">${c.label}</a>${i < crumbs.length - 1 ? ' › ' : ''}`
      : html`<span>${c.label}</span>`,
  )}</nav>`;
  const nav = html`<nav><a href="/">Sources</a></nav>`;
  return page(title, html`${trail}${body}`, {
    service: 'Atrium provenance',
    home: '/',
    nav,
    wide: true,
    head: html`<link rel="icon" href="data:,"><style>${new Html(BROWSE_STYLE)}</style>`,
  });
}

/** The Content-Security-Policy of browser pages: no script, no network but links, inline styles and SVG. */
export const BROWSE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
