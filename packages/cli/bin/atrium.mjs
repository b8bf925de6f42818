#!/usr/bin/env node
// Launcher for the `atrium` command: builds the workspace once if it has not been built yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const root = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));
  const build = spawnSync(process.execPath, [tsc, '-b', root], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
await import(main.href);
