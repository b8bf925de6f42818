import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages, not their build output.
    alias: [
      { find: /^@atrium\/core\/testing$/, replacement: src('core', 'testing/index.ts') },
      { find: /^@atrium\/core\/testing\/support$/, replacement: src('core', 'testing/support.ts') },
      { find: /^@atrium\/(core|inference|provenance|bench)$/, replacement: src('$1') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
