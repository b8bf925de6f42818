import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One static file of the console, kept in memory with its gzip form. */
export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/** The hand-written ES modules live in `src/console/client` (served as they are, no bundler). */
const CLIENT_DIR = fileURLToPath(new URL('../../src/console/client/', import.meta.url));
export const CLIENT_MODULES = [
  'app.js',
  'api.js',
  'dom.js',
  'perf.js',
  'plot.js',
  'change-point.js',
  'pages.js',
  'list.js',
  'auth.js',
  'confirm.js',
  'dimensions.js',
  'thresholds.js',
  'threshold-form.js',
  'settings.js',
  'members.js',
] as const;

/** The threshold form validates with the server's own rules: the compiled `boundary/model.js` (from `src` or `dist` alike), served as `model.js`. */
const MODEL_RULES = fileURLToPath(new URL('../../dist/boundary/model.js', import.meta.url));

const uplotDir = () => join(createRequire(import.meta.url).resolve('uplot'), '..');

const asset = (type: string, body: Buffer): Asset => ({ type, body, gzip: gzipSync(body, { level: 9 }) });

/** Every file the console serves under `/console/assets/`, by name. */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of CLIENT_MODULES) {
    assets.set(name, asset('text/javascript; charset=utf-8', readFileSync(join(CLIENT_DIR, name))));
  }
  const rules = readFileSync(MODEL_RULES, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/, '\n');
  assets.set('model.js', asset('text/javascript; charset=utf-8', Buffer.from(rules)));
  assets.set(
    'uPlot.iife.min.js',
    asset('text/javascript; charset=utf-8', readFileSync(join(uplotDir(), 'uPlot.iife.min.js'))),
  );
  assets.set('uPlot.min.css', asset('text/css; charset=utf-8', readFileSync(join(uplotDir(), 'uPlot.min.css'))));
  return assets;
}

/** A static `import … from './x.js'` at the start of a line (dynamic `import()`s load later, on demand). */
const STATIC_IMPORT = /^import\s[^;]*?from\s+'\.\/([\w.-]+\.js)';/gm;

/** `entry` and every client module it imports statically, directly or not: what a page needs before it runs. */
export function staticImports(assets: Map<string, Asset>, entry: string): string[] {
  const found = new Set<string>();
  const visit = (name: string) => {
    const module = assets.get(name);
    if (found.has(name) || !module) return;
    found.add(name);
    for (const [, imported] of module.body.toString('utf8').matchAll(STATIC_IMPORT)) visit(imported as string);
  };
  visit(entry);
  return [...found];
}
