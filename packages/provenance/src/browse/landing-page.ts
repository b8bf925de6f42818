import { html } from '@atrium/core';
import { browsePage } from './shell.js';

/** What the landing page says of one served source; counts are missing when they outlived the deadline. */
export interface SourceSummary {
  name: string;
  /** `archive (main_0001)`, `PostgreSQL database`. */
  kind: string;
  nodes?: number;
  processes?: number;
  /** First and last creation day (UTC). */
  span?: [string, string];
  /** Whether it is also served at `/api/v4` (the first source). */
  isDefault: boolean;
}

const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));

export function landingPage(sources: readonly SourceSummary[]): string {
  const rows = sources.map((s) => {
    const enc = encodeURIComponent(s.name);
    return html`<tr><td><a href="/browse/${enc}/nodes"><strong>${s.name}</strong></a>${s.isDefault ? html` <span class="badge">default</span>` : ''}<div class="muted">${s.kind}</div></td>
<td>${count(s.nodes)}</td><td>${count(s.processes)}</td><td>${s.span ? `${s.span[0]} – ${s.span[1]}` : '—'}</td>
<td><a href="/browse/${enc}/nodes">Browse nodes</a> · <a href="/${enc}/api/v4/">API root</a></td></tr>`;
  });
  const body = html`<h1>Served provenance data</h1>
<section><p>Each source below is an AiiDA archive or an AiiDA PostgreSQL database, browsable here and served through
AiiDA's REST API v4 at <code>/{name}/api/v4/</code> (the default source also at <code>/api/v4/</code>; AiiDA clients
such as aiida-explorer can use either).</p>
<table><thead><tr><th scope="col">Source</th><th scope="col">Nodes</th><th scope="col">Processes</th><th scope="col">Created</th><th scope="col">Open</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
  return browsePage('Sources', [{ label: 'Sources' }], body);
}
