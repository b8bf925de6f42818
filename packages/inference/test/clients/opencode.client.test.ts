import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectSettings } from './connect-settings.js';
import { OPENCODE, prepareClients } from './install.js';
import { expectRefusedWithin } from './refusal.js';
import { type ClientRun, clientEnv, runClient } from './run.js';
import { HELLO, IMAGES_SEEN, TOOL_SAID } from './scripted-upstream.js';
import { clientSuite } from './suite.js';
import { NOTES } from './work-files.js';

const prepared = await prepareClients(OPENCODE);

/**
 * opencode's global config dir with the connect page's settings (the provider through the bundled
 * `@ai-sdk/openai-compatible`) and updates and sharing off, plus the package files opencode would otherwise
 * `npm install` into the directory at start (its plugin SDK, which `opencode run` does not need).
 */
function writeOpencodeConfig(home: string, base: string): void {
  const dir = join(home, '.config', 'opencode');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  const dependencies = { '@opencode-ai/plugin': '1.18.33' };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
  const config = { ...JSON.parse(connectSettings(base).opencode), autoupdate: false, share: 'disabled' };
  writeFileSync(join(dir, 'opencode.json'), JSON.stringify(config));
}

// opencode takes 4–5 s of CPU per run: 25–35 s each on a machine loaded 10× over its cores.
describe.skipIf(prepared.skip)('opencode (`opencode run`) through the gateway', { timeout: 90_000 }, () => {
  const opencode = prepared.paths?.[0] as string;
  const suite = clientSuite('opencode');
  /** One user's HOME, configured for the gateway, for every run (the key comes from the environment). */
  let home: string;
  beforeAll(() => {
    home = suite.freshHome();
    writeOpencodeConfig(home, suite.gateway.base);
  });

  /** `opencode run` as that user, with its downloads and updates switched off. */
  const run = (args: string[], key = suite.gateway.key): Promise<ClientRun> =>
    runClient(opencode, ['run', ...args], {
      cwd: suite.work.dir,
      timeoutMs: 80_000,
      env: clientEnv(home, {
        ...suite.trap.env,
        ATRIUM_API_KEY: key,
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      }),
    });

  it('streams a plain answer', async () => {
    const from = suite.gateway.upstream.chats.length;
    const result = await run(['Say hello.']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(HELLO);
    expect(suite.gateway.upstream.chats.slice(from).every((chat) => chat.stream === true)).toBe(true);
  });

  it('reads a file with its read tool and answers from the result', async () => {
    suite.gateway.upstream.scriptToolCalls('READ-NOTES', { name: 'read', arguments: { filePath: suite.work.notes } });
    const result = await run(['READ-NOTES: what does notes.txt say?']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(TOOL_SAID);
    expect(result.stdout).toContain(NOTES);
  });

  it('sends an attached image', async () => {
    const result = await run(['What is in this picture?', '-f', 'pixel.png']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`${IMAGES_SEEN} 1`);
  });

  // opencode 1.18.33 retries every 429 (the AI SDK's `isRetryable`) five times, waiting what `retry-after` says:
  // a budget refusal's one second makes that about six seconds before it shows the gateway's message.
  it('shows a spent budget as an error within 10 s', async () => {
    const result = await run(['Say hello.'], await suite.gateway.spentKey());
    expectRefusedWithin(suite.gateway, result, 10_000);
    expect(`${result.stdout}${result.stderr}`).toMatch(/budget/i);
  });
  it('shows a key past its grant as an error', async () => {
    const result = await run(['Say hello.'], await suite.gateway.keyPastGrant());
    expect(`${result.stdout}${result.stderr}`).toMatch(/grant ended/);
  });

  it('tried to reach no host but the gateway', () => {
    expect(suite.trap.hosts).toEqual([]);
  });
});
