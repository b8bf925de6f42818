import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATRIUM_BIN, cliEnv, runCli } from './run-cli.js';

const FIXTURES = '/work/shared/fixtures/aiida';
const dir = mkdtempSync(join(tmpdir(), 'atrium-provenance-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `atrium provenance serve …` in `cwd`, resolves with its base URL and a stop function. */
function serveProvenance(args: string[], env: NodeJS.ProcessEnv, cwd = dir) {
  const child = spawn(process.execPath, [ATRIUM_BIN, 'provenance', 'serve', ...args], { env, cwd });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  const base = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.on('data', (d) => {
      out += d;
      const match = /AiiDA REST API v4 at (http:\/\/\S+)\/api\/v4\//.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { base, stop };
}

const server = async (base: string, prefix = '') =>
  ((await (await fetch(`${base}${prefix}/api/v4/server`)).json()) as { data: { AiiDA_version: string } }).data;
const total = async (base: string, prefix = '') =>
  ((await (await fetch(`${base}${prefix}/api/v4/nodes/statistics`)).json()) as { data: { total: number } }).data.total;

describe('atrium provenance serve reads the configuration atrium serve reads', () => {
  const toml = join(dir, 'custom.toml');
  writeFileSync(
    toml,
    [
      `dataDir = "${join(dir, 'data')}"`,
      '[provenance]',
      'port = 0',
      'aiidaVersion = "2.9.0.dev0"',
      `sources = [{ name = "simple", location = "${FIXTURES}/export/migrate/export_main_0001_simple.aiida" }, { name = "add", location = "${FIXTURES}/calcjob/arithmetic.add.aiida" }]`,
      '',
    ].join('\n'),
  );

  it('--config: sources and aiidaVersion from [provenance]', async () => {
    const { base, stop } = serveProvenance(['--config', toml], cliEnv());
    try {
      const url = await base;
      expect((await server(url)).AiiDA_version).toBe('2.9.0.dev0');
      expect(await total(url)).toBe(10);
      expect(await total(url, '/add')).toBe(7);
    } finally {
      expect(await stop()).toBe(0);
    }
  }, 60_000);

  it('ATRIUM_CONFIG and ATRIUM_PROVENANCE_* variables; positional archives replace the configured sources', async () => {
    const env = cliEnv({ ATRIUM_CONFIG: toml, ATRIUM_PROVENANCE_AIIDA_VERSION: '2.6.3' });
    const { base, stop } = serveProvenance([`${FIXTURES}/calcjob/arithmetic.add.aiida`], env);
    try {
      const url = await base;
      expect((await server(url)).AiiDA_version).toBe('2.6.3');
      expect(await total(url)).toBe(7);
      expect((await fetch(`${url}/simple/api/v4/server`)).status).toBe(404);
    } finally {
      expect(await stop()).toBe(0);
    }
  }, 60_000);

  it('./atrium.toml in the working directory', async () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(
      join(cwd, 'atrium.toml'),
      `[provenance]\naiidaVersion = "2.8.0"\nsources = [{ name = "add", location = "${FIXTURES}/calcjob/arithmetic.add.aiida" }]\n`,
    );
    const { base, stop } = serveProvenance(['--data-dir', join(dir, 'data')], cliEnv(), cwd);
    try {
      const url = await base;
      expect((await server(url, '/add')).AiiDA_version).toBe('2.8.0');
    } finally {
      expect(await stop()).toBe(0);
    }
  }, 60_000);

  it('without an archive or configured sources: usage error (exit 2); a bad key: config error', async () => {
    const bare = await runCli(['provenance', 'serve'], cliEnv());
    expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining('[provenance] sources')]);
    const bad = await runCli(
      ['provenance', 'serve', `${FIXTURES}/calcjob/arithmetic.add.aiida`],
      cliEnv({ ATRIUM_PROVENANCE_QUERY_TIMEOUT_MS: 'soon' }),
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('provenance.queryTimeoutMs');
  }, 60_000);
});
