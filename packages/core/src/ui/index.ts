export { escapeHtml, Html, html } from './html.js';
export { type PageOptions, page } from './layout.js';
export { ATRIUM_STYLE } from './style.js';
