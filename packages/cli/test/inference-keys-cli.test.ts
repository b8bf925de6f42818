import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './run-cli.js';

describe('atrium inference: inclusive end dates, key edits, rotation, CSV usage', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-cli-keys-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = cliEnv({ ATRIUM_DEMO: '0' });
  const atrium = async (...args: string[]) => {
    const result = await runCli(['inference', ...args, '--data-dir', dataDir], env);
    return { ...result, json: result.code === 0 && args.includes('--json') ? JSON.parse(result.stdout) : undefined };
  };
  const ref = ['--project', 'chem'];

  it('manages a key as the web UI does', async () => {
    expect((await atrium('create-project', '--name', 'chem', '--organisation', 'atrium')).code).toBe(0);
    const grant = await atrium('add-grant', ...ref, '--start', '2020-01-01', '--end', '2999-12-31', '--json');
    expect(grant.json.ends).toBe(Date.parse('3000-01-01T00:00:00Z')); // the whole of the last day
    expect((await atrium('list-projects')).stdout).toMatch(/LAST GRANT DAY[\s\S]*chem .* 2999-12-31/);
    await atrium('set-allocation', ...ref, '--cluster', 'c1', '--node-hours', '10');
    await atrium('set-rate', '--cluster', 'c1', '--credits-per-node-hour', '10', '--from', '2020-01-01');
    expect((await atrium('convert', ...ref, '--cluster', 'c1', '--node-hours', '1')).code).toBe(0);

    const created = await atrium(
      'create-key',
      ...ref,
      '--alias',
      'ci',
      '--expires',
      '2030-12-31',
      '--rpm',
      '60',
      '--tpm',
      '10000',
    );
    expect(created.code).toBe(0);
    const listed = (await atrium('list-keys', ...ref)).stdout;
    expect(listed).toMatch(/LIMITS +EXPIRES/);
    expect(listed).toMatch(/ci .* 60\/10000 +2030-12-31 .* operator +active/);

    const edited = await atrium(
      'edit-key',
      ...ref,
      '--alias',
      'ci',
      '--new-alias',
      'ci2',
      '--expires',
      'none',
      '--rpm',
      'none',
    );
    expect([edited.code, edited.stdout]).toEqual([0, "changed key 'ci2'\n"]);
    const keys = (await atrium('list-keys', ...ref, '--json')).json;
    expect(keys).toMatchObject([{ alias: 'ci2', expires: null, requests_per_minute: null, tokens_per_minute: 10000 }]);
    expect((await atrium('edit-key', ...ref, '--alias', 'ci2', '--budget=-3')).stderr).toContain(
      'the token budget must be a positive whole number',
    );

    const rotated = await atrium('rotate-key', ...ref, '--alias', 'ci2');
    expect(rotated.stdout).toMatch(
      /^rotated key 'ci2': the old secret is refused from now on\nnew secret \(shown once, store it now\): sk-[0-9A-Za-z]{40}\n$/,
    );
    const csv = await atrium('usage', ...ref, '--by', 'day', '--csv');
    expect([csv.code, csv.stdout]).toEqual([
      0,
      'group,requests,prompt_tokens,completion_tokens,total_tokens,credits\r\n',
    ]);
  }, 120_000);
});
