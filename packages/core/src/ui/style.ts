/**
 * The one Atrium stylesheet (inference web UI and bench console). Colours keep a contrast of at least 4.5:1 on
 * their background; every control shows a visible keyboard focus ring; below 40rem the layout is a single column.
 */
export const ATRIUM_STYLE = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
a{color:#1a4fb5}a:hover{color:#0d3380}
header{background:#1d2330;color:#fff;padding:.6rem 1.5rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
header a,header button{color:#fff}header button{background:transparent;border-color:#c5ccd6}header .muted{color:#c5ccd6}header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}
header .grow{flex:1}
main{max-width:60rem;margin:1.5rem auto;padding:0 1rem}main.wide{max-width:90rem}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:1rem 1.25rem;margin-bottom:1rem;overflow-x:auto}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eef0f3;vertical-align:top}
.error{background:#fdecec;border-color:#f3b8b8}.notice{background:#eef6ff;border-color:#b8d4f3}
.secret{font:1.1rem monospace;background:#fffbe6;padding:.5rem;word-break:break-all}
form.inline{display:inline}label{display:block;margin:.4rem 0}input,select,textarea,button{font:inherit}
input,select,textarea{max-width:100%;padding:.25rem .4rem;border:1px solid #8a93a3;border-radius:4px;background:#fff;color:#1d2330}
button,.button{display:inline-block;padding:.3rem .8rem;border:1px solid #1d2330;border-radius:4px;background:#fff;color:#1d2330;cursor:pointer;text-decoration:none}
button.primary,.button.primary{background:#1a4fb5;border-color:#1a4fb5;color:#fff}
button:disabled{opacity:.55;cursor:not-allowed}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.muted{color:#596272}.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
.badge{display:inline-block;padding:0 .45rem;border-radius:1rem;background:#eef0f3;font-size:.85em}
.badge.active{background:#fdecec;color:#8a1111}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(28rem,1fr));gap:1rem}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;color:#1d2330;padding:.3rem;z-index:9}
@media (max-width:40rem){header{padding:.5rem .75rem}main{margin:.75rem auto;padding:0 .5rem}section{padding:.75rem}
.grid{grid-template-columns:1fr}td,th{padding:.25rem .3rem}}`;
