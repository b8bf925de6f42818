// `npm start`: build what changed (tsc -b is incremental), then `atrium serve` with any extra arguments.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-b', fileURLToPath(new URL('../tsconfig.json', import.meta.url))], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
process.argv.splice(2, 0, 'serve');
await import('../packages/cli/dist/main.js');
