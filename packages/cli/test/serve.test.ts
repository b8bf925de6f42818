import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli, startServe } from './run-cli.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'atrium-cli-'));

describe('atrium serve', () => {
  it('starts all three services, serves their routes and stops cleanly on SIGTERM', async () => {
    const env = cliEnv({ ATRIUM_DEMO_KEY: 'sk-cli-test-demo-key' });
    const served = await startServe(['--data-dir', tempDir()], ['inference', 'provenance', 'bench'], env);
    try {
      const origin = (name: string) => new URL(served.urls.get(name) as string).origin;
      for (const name of ['inference', 'provenance', 'bench']) {
        const health = await fetch(`${origin(name)}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok', service: name });
      }
      expect(served.urls.get('provenance')).toMatch(/\/api\/v4\/$/);
      const info = await fetch(`${origin('provenance')}/api/v4/server/`);
      expect(((await info.json()) as { data: { API_prefix: string } }).data.API_prefix).toBe('/api/v4');
      expect(await (await fetch(`${origin('bench')}/v0/server/version`)).json()).toHaveProperty('version');
      const headers = { authorization: 'Bearer sk-cli-test-demo-key' };
      const models = (await (await fetch(`${origin('inference')}/v1/models`, { headers })).json()) as {
        object: string;
      };
      expect(models.object).toBe('list');
    } finally {
      expect(await served.stop('SIGTERM')).toBe(0);
    }
  });

  it('runs a single service with --services', async () => {
    const served = await startServe(['--services', 'bench', '--data-dir', tempDir()], ['bench']);
    expect([...served.urls.keys()]).toEqual(['bench']);
    expect(await served.stop('SIGINT')).toBe(0);
  });

  it.each([
    ['a port of abc in the environment', [], { ATRIUM_BENCH_PORT: 'abc' }, /bench\.port.*"abc".*ATRIUM_BENCH_PORT/],
    ['a port of abc in the config file', ['--config', 'FILE'], { ATRIUM_BENCH_PORT: undefined }, /bench\.port.*"abc"/],
    ['an unknown service', ['--services', 'bench,mail'], {}, /unknown service 'mail'/],
    ['an unknown flag', ['--colour'], {}, /--colour/],
  ])('stops with one line and exit code 2 on %s', async (_name, args, env, pattern) => {
    const dir = tempDir();
    const file = join(dir, 'atrium.toml');
    writeFileSync(file, '[bench]\nport = "abc"\n');
    const result = await runCli(
      ['serve', '--data-dir', dir, ...args.map((a) => (a === 'FILE' ? file : a))],
      cliEnv(env),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 with one line when a port is taken', async () => {
    const served = await startServe(['--services', 'bench', '--data-dir', tempDir()], ['bench']);
    try {
      const port = new URL(served.urls.get('bench') as string).port;
      const result = await runCli(
        ['serve', '--services', 'bench', '--data-dir', tempDir()],
        cliEnv({ ATRIUM_BENCH_PORT: port }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/EADDRINUSE/);
    } finally {
      await served.stop();
    }
  });
});

describe('atrium', () => {
  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^atrium \d+\.\d+\.\d+\n$/);
  });

  it('prints help', async () => {
    const result = await runCli(['help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('atrium serve [--services inference,provenance,bench]');
  });

  it('rejects an unknown command with exit code 2', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("atrium: unknown command 'frobnicate'; run 'atrium help'\n");
  });
});
