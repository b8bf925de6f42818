import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { OperatorCommands, openInferenceDatabase, TEST_MODEL_ID } from '@atrium/inference';
import { expect, it } from 'vitest';
import { addUsage } from '../../inference/src/storage/usage.js';
import { cliEnv, runCli } from './run-cli.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describeEachDialect(
  'atrium inference: keys, usage, projects and resources (the web UI at the command line)',
  ({ url }) => {
    it('lists, revokes, reports usage with filters, checks models against the embedded default, and explains itself', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'atrium-cli-parity-'));
      try {
        // The default set-up: no model configured, so the gateway serves the embedded test model.
        const config = join(dir, 'atrium.toml');
        writeFileSync(config, `[inference]\ndatabase = "${url()}"\n[inference.auth]\ndemo = false\n`);
        const env = cliEnv({ ATRIUM_CONFIG: config });
        const atrium = (...args: string[]) => runCli(['inference', ...args, '--data-dir', dir], env);
        const json = async (...args: string[]) => {
          const result = await atrium(...args, '--json');
          expect(result.stderr).toBe('');
          return JSON.parse(result.stdout) as Record<string, unknown>[];
        };

        const now = Date.now();
        const hour = now - (now % HOUR_MS);
        const database = await openInferenceDatabase(url());
        let keyIds: { alpha: string; beta: string; gamma: string };
        try {
          const ops = new OperatorCommands(database.db);
          for (const name of ['physics', 'chemistry']) {
            await ops.createProject(name, 'atrium');
            await ops.addGrant(name, now - DAY_MS, now + 365 * DAY_MS);
            await ops.setAllocation(name, 'c1', 10);
          }
          await ops.setRate('c1', 100, now - DAY_MS);
          await ops.convertNodeHours('physics', 'c1', 10);
          await ops.convertNodeHours('chemistry', 'c1', 5);
          await ops.setLimits('physics', { requestsPerMinute: 60, tokensPerMinute: null, concurrentRequests: 4 });
          const models = new Set([TEST_MODEL_ID, 'acme/other']);
          const alpha = await ops.createKey(
            'physics',
            { alias: 'alpha', budgetTokens: 5000, resetPeriod: 'month' },
            models,
          );
          const beta = await ops.createKey('physics', { alias: 'beta' }, models);
          const gamma = await ops.createKey('chemistry', { alias: 'gamma' }, models);
          keyIds = { alpha: alpha.id, beta: beta.id, gamma: gamma.id };
          const row = (key_id: string, model: string, at: number, requests: number) => ({
            key_id,
            model,
            hour: at,
            requests,
            prompt_tokens: 10 * requests,
            completion_tokens: requests,
            credits: 1_000_000 * requests,
          });
          await addUsage(database.db, [
            row(alpha.id, TEST_MODEL_ID, hour, 3),
            row(alpha.id, 'acme/other', hour, 1),
            row(alpha.id, TEST_MODEL_ID, hour - 40 * DAY_MS, 100),
            row(beta.id, TEST_MODEL_ID, hour - HOUR_MS, 2),
            row(gamma.id, 'acme/other', hour, 5),
          ]);
        } finally {
          await database.close();
        }

        const [help, subHelp, unknown, created, refused] = await Promise.all([
          runCli(['inference', '--help'], env),
          atrium('usage', '--help'),
          atrium('list-everything'),
          atrium('create-key', '--project', 'chemistry', '--alias', 'tiny', '--models', TEST_MODEL_ID),
          atrium('create-key', '--project', 'physics', '--alias', 'nope', '--models', 'acme/absent'),
        ]);
        const [keys, projects, resources, byKey, byModel, oneKey, human] = await Promise.all([
          json('list-keys', '--project', 'physics'),
          json('list-projects'),
          json('list-resources'),
          json('usage'),
          json('usage', '--by', 'model', '--project', 'physics'),
          json('usage', '--project', 'physics', '--alias', 'ALPHA', '--from', new Date(hour - HOUR_MS).toISOString()),
          atrium('usage', '--by', 'project'),
        ]);

        expect(help.code).toBe(0);
        for (const command of ['list-keys', 'revoke-key', 'usage', 'list-projects', 'list-resources', 'create-key'])
          expect(help.stdout).toContain(`atrium inference ${command}`);
        expect([subHelp.code, subHelp.stdout]).toEqual([0, expect.stringContaining('--by key|project|model|day')]);
        expect(subHelp.stdout).not.toContain('create-key');
        expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("run 'atrium inference --help'")]);

        // Model names are those the gateway serves: the embedded default when none is configured.
        expect([created.code, created.stderr]).toEqual([0, '']);
        expect(created.stdout).toMatch(/secret \(shown once, store it now\): sk-/);
        expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('unknown model(s): acme/absent')]);

        expect(keys.map((k) => [k.project, k.alias, k.budget_tokens, k.state])).toEqual([
          ['physics', 'alpha', 5000, 'active'],
          ['physics', 'beta', null, 'active'],
        ]);
        expect(JSON.stringify(keys)).not.toMatch(/sk-|secret_hash/);
        expect(projects.map((p) => [p.name, p.members, typeof p.grant_ends, p.resource_id !== null])).toEqual([
          ['chemistry', 0, 'number', true],
          ['physics', 0, 'number', true],
        ]);
        expect(
          resources.map((r) => [r.project, r.credits_total, r.requests_per_minute, r.concurrent_requests]),
        ).toEqual([
          ['chemistry', 500, null, null],
          ['physics', 1000, 60, 4],
        ]);

        // The last 30 days by default: alpha's usage of 40 days ago is outside.
        expect(byKey.map((u) => [u.group, u.requests, u.prompt_tokens, u.completion_tokens, u.credits])).toEqual([
          ['chemistry/gamma', 5, 50, 5, 5],
          ['physics/alpha', 4, 40, 4, 4],
          ['physics/beta', 2, 20, 2, 2],
        ]);
        expect(byModel.map((u) => [u.group, u.requests])).toEqual([
          ['acme/other', 1],
          [TEST_MODEL_ID, 5],
        ]);
        expect(oneKey.map((u) => [u.group, u.requests])).toEqual([['physics/alpha', 4]]);
        expect(human.stdout.split('\n').map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
          ['GROUP', 'REQUESTS'],
          ['chemistry', '5'],
          ['physics', '6'],
          [''],
        ]);

        const [revoked, byAlias, missing] = await Promise.all([
          atrium('revoke-key', '--key', keyIds.beta),
          atrium('revoke-key', '--project', 'chemistry', '--alias', 'gamma', '--json'),
          atrium('revoke-key', '--project', 'chemistry', '--alias', 'absent'),
        ]);
        expect([revoked.code, revoked.stdout]).toEqual([0, "revoked key 'beta'\n"]);
        expect(JSON.parse(byAlias.stdout)).toEqual({ id: keyIds.gamma, alias: 'gamma', revoked: true });
        expect([missing.code, missing.stderr]).toEqual([
          1,
          expect.stringContaining("key 'absent' of project 'chemistry'"),
        ]);
        const listed = await atrium('list-keys');
        expect(
          listed.stdout
            .split('\n')
            .map((line) => line.split(/\s{2,}/)[1] ?? '')
            .slice(0, 5),
        ).toEqual(['ALIAS', 'gamma', 'tiny', 'alpha', 'beta']);
        expect(listed.stdout).toMatch(/beta .*revoked \d{4}-\d\d-\d\d/);
        expect(listed.stdout).toMatch(/alpha .*active/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 300_000);
  },
);
