import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './run-cli.js';

describe('atrium inference operator commands', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-cli-inference-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = cliEnv({ ATRIUM_DEMO: '0' });
  const atrium = async (...args: string[]) => {
    const result = await runCli(['inference', ...args, '--data-dir', dataDir], env);
    return { ...result, json: result.code === 0 && args.includes('--json') ? JSON.parse(result.stdout) : undefined };
  };

  it('sets up a project and creates a key, printing its secret once', async () => {
    const pi = await atrium('create-account', '--email', 'PI@Example.org', '--name', 'Pat', '--json');
    expect(pi.json).toMatchObject({ email: 'pi@example.org', is_admin: 0, password: expect.any(String) });
    expect(
      (
        await atrium(
          'create-account',
          '--email',
          'op@example.org',
          '--name',
          'Op',
          '--password',
          'pw',
          '--admin',
          '--json',
        )
      ).json,
    ).toMatchObject({ is_admin: 1 });
    expect(
      (await atrium('create-project', '--name', 'physics', '--organisation', 'atrium', '--json')).json,
    ).toMatchObject({
      name: 'physics',
    });
    expect(
      (await atrium('add-member', '--project', 'physics', '--email', 'pi@example.org', '--role', 'pi', '--json')).code,
    ).toBe(0);
    expect(
      (await atrium('add-grant', '--project', 'physics', '--start', '2020-01-01', '--end', '2999-01-01', '--json'))
        .code,
    ).toBe(0);
    expect(
      (await atrium('set-allocation', '--project', 'physics', '--cluster', 'c1', '--node-hours', '100')).code,
    ).toBe(0);
    expect(
      (await atrium('set-rate', '--cluster', 'c1', '--credits-per-node-hour', '10', '--from', '2020-01-01')).code,
    ).toBe(0);
    expect((await atrium('requests', '--json')).json).toEqual([]);

    const noResource = await atrium('create-key', '--project', 'physics', '--alias', 'ci');
    expect(noResource.code).toBe(1);
    expect(noResource.stderr).toContain('no inference resource yet');

    const converted = await atrium(
      'convert',
      '--project',
      'physics',
      '--cluster',
      'c1',
      '--node-hours',
      '30',
      '--json',
    );
    expect(converted.json).toMatchObject({ project: 'physics', credits_added: 300 });
    const overdraw = await atrium('convert', '--project', 'physics', '--cluster', 'c1', '--node-hours', '71');
    expect(overdraw.stderr).toContain('does not have 71 node hours left');
    expect((await atrium('top-up', '--project', 'physics', '--credits', '12.5', '--json')).json).toEqual({
      project: 'physics',
      credits_added: 12.5,
    });
    expect((await atrium('set-limits', '--project', 'physics', '--rpm', '60', '--json')).json).toEqual({
      project: 'physics',
      requestsPerMinute: 60,
      tokensPerMinute: null,
      concurrentRequests: null,
    });
    expect((await atrium('set-limits', '--project', 'physics', '--tpm', '0.5')).stderr).toContain(
      'tokens per minute must be a positive whole number',
    );
    const key = await atrium(
      'create-key',
      '--project',
      'physics',
      '--alias',
      'ci',
      '--budget',
      '1000',
      '--period',
      'week',
    );
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(
      /^created key 'ci' in project physics\nsecret \(shown once, store it now\): sk-[0-9A-Za-z]{40}\n$/,
    );
    expect((await atrium('create-key', '--project', 'physics', '--alias', ' CI ')).stderr).toContain('already exists');

    const announced = await atrium(
      'announce',
      '--kind',
      'maintenance',
      '--title',
      'Driver update',
      '--start',
      '2030-01-01T08:00:00Z',
      '--end',
      '2030-01-01T09:00:00Z',
      '--json',
    );
    expect(announced.json).toMatchObject({ kind: 'maintenance', title: 'Driver update', recipients: 1 });

    const badRole = await atrium('add-member', '--project', 'physics', '--email', 'op@example.org', '--role', 'boss');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain('role must be one of pi, deputy, member');
    const missing = await atrium('add-grant', '--project', 'physics', '--start', 'soon', '--end', '2999-01-01');
    expect(missing.code).toBe(2);
  }, 120_000);
});
