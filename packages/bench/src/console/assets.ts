import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One static file of the console, kept in memory with its gzip form. */
export interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/**
 * The console's ES modules: `src/console/client/*.ts` compiled by `tsc -b` (its own tsconfig, DOM library) to
 * `dist/console/client`, served as they are (no bundler); read from `dist` whether this file runs from `src` or `dist`.
 */
const CLIENT_DIR = fileURLToPath(new URL('../../dist/console/client/', import.meta.url));
export const CLIENT_MODULES = [
  'app.js',
  'api.js',
  'dom.js',
  'perf.js',
  'plot.js',
  'change-point.js',
  'pages.js',
  'dashboard.js',
  'list.js',
  'auth.js',
  'confirm.js',
  'dimensions.js',
  'thresholds.js',
  'threshold-form.js',
  'settings.js',
  'members.js',
] as const;

/**
 * Modules the client shares with the server, compiled with it, served under their file name: the threshold form
 * validates with the server's own rules (`boundary/model.js`); plots and tables scale numbers as the perf image
 * does (`plot/units.js`). Neither imports anything.
 */
const SHARED_MODULES = ['boundary/model.js', 'plot/units.js'].map((path) =>
  fileURLToPath(new URL(`../../dist/${path}`, import.meta.url)),
);

const withoutSourceMap = (path: string) =>
  Buffer.from(readFileSync(path, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/, '\n'));

const uplotDir = () => join(createRequire(import.meta.url).resolve('uplot'), '..');

const asset = (type: string, body: Buffer): Asset => ({ type, body, gzip: gzipSync(body, { level: 9 }) });

/** Every file the console serves under `/console/assets/`, by name. */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of CLIENT_MODULES) {
    assets.set(name, asset('text/javascript; charset=utf-8', readFileSync(join(CLIENT_DIR, name))));
  }
  for (const path of SHARED_MODULES)
    assets.set(basename(path), asset('text/javascript; charset=utf-8', withoutSourceMap(path)));
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
