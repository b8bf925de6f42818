import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectSettings } from './connect-settings.js';
import { CODEX, prepareClients } from './install.js';
import { expectRefusedWithin } from './refusal.js';
import { type ClientRun, clientEnv, runClient } from './run.js';
import { HELLO, TOOL_SAID } from './scripted-upstream.js';
import { clientSuite } from './suite.js';
import { NOTES } from './work-files.js';

const prepared = await prepareClients(CODEX);

/**
 * `$CODEX_HOME/config.toml`: the connect page's settings (a provider speaking the Responses API), with update
 * checks, analytics and plugin syncing off.
 */
const codexConfig = (base: string) => `check_for_update_on_startup = false

${connectSettings(base).codex}

[analytics]
enabled = false

[feedback]
enabled = false

# Else each start syncs the curated plugins from github.com, api.github.com and chatgpt.com.
[features]
plugins = false
`;

describe.skipIf(prepared.skip)(
  'codex (`codex exec`) over /v1/responses through the gateway',
  { timeout: 60_000 },
  () => {
    const codex = prepared.paths?.[0] as string;
    const suite = clientSuite('codex');

    /** `codex exec` in a fresh CODEX_HOME configured for the gateway. */
    const exec = (prompt: string, key = suite.gateway.key): Promise<ClientRun> => {
      const home = suite.freshHome();
      writeFileSync(join(home, 'config.toml'), codexConfig(suite.gateway.base));
      return runClient(codex, ['exec', '--skip-git-repo-check', prompt], {
        cwd: suite.work.dir,
        timeoutMs: 50_000,
        env: clientEnv(home, { ...suite.trap.env, CODEX_HOME: home, ATRIUM_API_KEY: key }),
      });
    };

    it('streams a plain answer', async () => {
      const from = suite.gateway.answered.length;
      const run = await exec('Say hello.');
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(HELLO);
      expect(suite.gateway.answered.slice(from).map((a) => a.path)).toContain('/v1/responses');
    });

    it('runs a command with its shell tool and answers from the output', async () => {
      suite.gateway.upstream.scriptToolCalls('READ-NOTES', {
        name: 'exec_command',
        arguments: { cmd: 'cat notes.txt' },
      });
      const run = await exec('READ-NOTES: what does notes.txt say?');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(TOOL_SAID);
      expect(run.stdout).toContain(NOTES);
    });

    it('shows a spent budget as an error within 10 s', async () => {
      const run = await exec('Say hello.', await suite.gateway.spentKey());
      expectRefusedWithin(suite.gateway, run, 10_000);
      expect(run.code).not.toBe(0);
      // codex shows its own text for `insufficient_quota`, not the gateway's message (with the budget's reset time).
      expect(run.stderr).toContain('ERROR: Quota exceeded.');
    });

    // codex retries the 403 five times (about 7 s) before it shows the message.
    it('shows a key past its grant as an error', async () => {
      const run = await exec('Say hello.', await suite.gateway.keyPastGrant());
      expect(run.code).not.toBe(0);
      expect(`${run.stdout}${run.stderr}`).toMatch(/grant ended/);
    });

    it('tried to reach no host but the gateway', () => {
      expect(suite.trap.hosts).toEqual([]);
    });
  },
);
