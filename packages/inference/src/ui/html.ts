/** Markup that is already safe to emit. */
export class Html {
  constructor(readonly text: string) {}
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped unless they are `Html` (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1rem;align-items:center}
header a,header button{color:#fff}main{max-width:60rem;margin:1.5rem auto;padding:0 1rem}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:1rem 1.25rem;margin-bottom:1rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eef0f3}
.error{background:#fdecec;border-color:#f3b8b8}.secret{font:1.1rem monospace;background:#fffbe6;padding:.5rem;word-break:break-all}
form.inline{display:inline}label{display:block;margin:.4rem 0}input,select,textarea{font:inherit}
.muted{color:#667}`;

/** The page layout; `nonce` allows the page's own inline script under the CSP. */
export function page(title: string, body: Html, options: { nav?: Html; nonce?: string; script?: string } = {}): string {
  const script =
    options.script && options.nonce ? html`<script nonce="${options.nonce}">${new Html(options.script)}</script>` : '';
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Atrium inference</title><style>${new Html(STYLE)}</style></head>
<body><header><strong>Atrium inference</strong>${options.nav ?? ''}</header><main>${body}</main>${script}</body></html>`
      .text
  }`;
}
