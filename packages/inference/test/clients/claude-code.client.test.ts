import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectSettings, exportsOf } from './connect-settings.js';
import { CLAUDE_CODE, prepareClients } from './install.js';
import { expectRefusedWithin } from './refusal.js';
import { type ClientRun, clientEnv, runClient } from './run.js';
import { HELLO, TOOL_SAID } from './scripted-upstream.js';
import { clientSuite } from './suite.js';
import { NOTES } from './work-files.js';

const prepared = await prepareClients(CLAUDE_CODE);

describe.skipIf(prepared.skip)('Claude Code (`claude -p`) through the gateway', () => {
  const claude = prepared.paths?.[0] as string;
  const suite = clientSuite('claude-code');

  /**
   * `claude -p` as a user runs it with the connect page's settings, in a fresh HOME, with its calls home switched
   * off.
   */
  const ask = (prompt: string, { key = suite.gateway.key, args = [] as string[] } = {}): Promise<ClientRun> => {
    const home = suite.freshHome();
    return runClient(claude, ['-p', prompt, ...args], {
      cwd: suite.work.dir,
      timeoutMs: 30_000,
      env: clientEnv(home, {
        ...suite.trap.env,
        ...exportsOf(connectSettings(suite.gateway.base).claudeCode, key),
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
      }),
    });
  };

  it('answers a plain prompt', async () => {
    const run = await ask('Say hello.');
    // Told the model's context, Claude Code does not assume one of its own.
    expect(run.stderr).not.toContain('assumes a context window');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(HELLO);
  });

  it('streams the answer as it arrives', async () => {
    const run = await ask('Say hello.', {
      args: ['--output-format', 'stream-json', '--verbose', '--include-partial-messages'],
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; event?: { delta?: { type?: string; text?: string } } });
    const deltas = events.flatMap((e) => (e.event?.delta?.type === 'text_delta' ? [e.event.delta.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(HELLO);
  });

  it('reads a file with its Read tool and answers from the result', async () => {
    suite.gateway.upstream.scriptToolCalls('READ-NOTES', { name: 'Read', arguments: { file_path: suite.work.notes } });
    const run = await ask('READ-NOTES: what does notes.txt say?', { args: ['--allowedTools', 'Read'] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(TOOL_SAID);
    expect(run.stdout).toContain(NOTES);
  });

  it('finds a deferred tool with tool search and calls it', async () => {
    suite.gateway.upstream.scriptToolCalls(
      'FIND-CRON',
      { name: 'ToolSearch', arguments: { query: 'select:CronList' } },
      { name: 'CronList', arguments: {} },
    );
    const from = suite.gateway.answered.length;
    const run = await ask('FIND-CRON: which cron jobs are scheduled?');
    expect(run.code).toBe(0);
    // Without tool_reference in tool results: three 400s, then Claude Code sends every deferred tool in full.
    expect(suite.gateway.answered.slice(from).map((a) => a.status)).not.toContain(400);
    expect(run.stdout.trim()).toBe(`${TOOL_SAID} No scheduled jobs.`);
  });

  it('shows a spent budget as an error within 10 s', async () => {
    const run = await ask('Say hello.', { key: await suite.gateway.spentKey() });
    expectRefusedWithin(suite.gateway, run, 10_000);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/budget/i);
  });
  it('shows a key past its grant as an error', async () => {
    const run = await ask('Say hello.', { key: await suite.gateway.keyPastGrant() });
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/grant ended/);
  });

  it('tried to reach no host but the gateway', () => {
    expect(suite.trap.hosts).toEqual([]);
  });
});
