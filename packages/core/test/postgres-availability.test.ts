import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../src/testing/databases.ts', import.meta.url));

/** Asks a fresh process (the module reads its environment once) whether PostgreSQL tests would run. */
function probe(env: Record<string, string>) {
  const script = `import(${JSON.stringify(module)}).then((m) => m.postgresAvailable()).then((ok) => console.log('available=' + ok))`;
  const { CI: _ci, ...inherited } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    env: { ...inherited, ATRIUM_TEST_PG_URL: 'postgres://postgres@127.0.0.1:1/postgres', ...env },
    encoding: 'utf8',
  });
}

describe('PostgreSQL availability for the dual-dialect tests', () => {
  it('skips the PostgreSQL half with a warning outside CI', () => {
    const result = probe({});
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('available=false');
    expect(result.stderr).toMatch(
      /WARNING: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/postgres is not reachable/,
    );
  });

  it('fails loudly under CI=true', () => {
    const result = probe({ CI: 'true' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/CI=true requires it/);
  });
});
