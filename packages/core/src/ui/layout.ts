import { Html, html } from './html.js';
import { ATRIUM_STYLE } from './style.js';

export interface PageOptions {
  /** The service's name, shown in the header and the title ("Atrium inference"). */
  service: string;
  /** Links (or forms) in the header after the service's name. */
  nav?: Html | undefined;
  /** Allows the page's own inline `script` under a nonce-based CSP. */
  nonce?: string | undefined;
  script?: string | undefined;
  /** Extra markup for `<head>` (stylesheets, module scripts, meta). */
  head?: Html | undefined;
  /** Where the service's name links to. */
  home?: string | undefined;
  /** A wider main column (plots, dashboards). */
  wide?: boolean | undefined;
}

/** The Atrium page layout shared by every service's web pages. */
export function page(title: string, body: Html, options: PageOptions): string {
  const script =
    options.script && options.nonce ? html`<script nonce="${options.nonce}">${new Html(options.script)}</script>` : '';
  const brand = options.home
    ? html`<a href="${options.home}"><strong>${options.service}</strong></a>`
    : html`<strong>${options.service}</strong>`;
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${options.service}</title><style>${new Html(ATRIUM_STYLE)}</style>${options.head ?? ''}</head>
<body><a class="skip" href="#main">Skip to content</a><header>${brand}${options.nav ?? ''}</header><main id="main"${new Html(options.wide ? ' class="wide"' : '')}>${body}</main>${script}</body></html>`
      .text
  }`;
}
