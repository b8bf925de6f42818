import { page as atriumPage, type Html } from '@atrium/core';

export { escapeHtml, Html, html } from '@atrium/core';

/**
 * The Atrium layout for the inference web UI, its name linking to the home page; `nonce` allows the page's own
 * inline script under the CSP.
 */
export const page = (
  title: string,
  body: Html,
  options: { nav?: Html | undefined; nonce?: string; script?: string; head?: Html | undefined } = {},
): string => atriumPage(title, body, { service: 'Atrium inference', home: '/ui/', ...options });
