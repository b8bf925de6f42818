import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { cliEnv, type Served, startServe } from '../../cli/test/run-cli.js';
import { findApiKey } from '../src/storage/api-keys.js';
import { usageOfKey } from '../src/storage/usage.js';
import { journalDirOf } from '../src/storage/usage-journal.js';
import { JOURNAL_WINDOW_MS } from '../src/tenancy/usage-recorder.js';
import { recordedVllm, startFixedUpstream, VLLM_COMPLETION } from './support/fixed-upstream.js';
import { seedTenant, withDatabase } from './support/tenancy.js';

const MODEL = 'acme/m';
const COMPLETED = 20;
const IN_FLIGHT = 3;
const SCHEDULING_SLACK_MS = 20;
const { prompt_tokens: PROMPT, completion_tokens: COMPLETION } = VLLM_COMPLETION.usage;

/** Streams send their first chunk and then stall until the upstream closes; everything else is recorded vLLM. */
const stallingStreams: typeof recordedVllm = (request, body, response) => {
  if (!body.includes('"stream":true')) return recordedVllm(request, body, response);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(
    'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Par"},"finish_reason":null}]}\n\n',
  );
};

function chat(base: string, secret: string, stream: boolean): Promise<Response> {
  return fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Capital of France?' }], stream }),
  });
}

describeEachDialect('usage history across kill -9 of the gateway', ({ url }) => {
  it('after a restart the history holds every answered request and none of the streams cut off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-usage-crash-'));
    const upstream = await startFixedUpstream(stallingStreams);
    let gateway: Served | undefined;
    try {
      let keyId = '';
      let secret = '';
      await withDatabase(url(), async (db) => {
        const tenant = await seedTenant(db, {}, Date.now());
        ({
          key: { id: keyId },
          secret,
        } = await tenant.key({ alias: 'crash', budgetTokens: 1_000_000 }, [MODEL]));
      });
      const config = join(dir, 'atrium.toml');
      writeFileSync(
        config,
        `[inference]\ndatabase = "${url()}"\n[inference.auth]\ndemo = false\n` +
          `[[inference.models]]\nid = "${MODEL}"\ncontextLength = 4096\n` +
          `backend = { type = "upstream", replicas = ["${upstream.origin}"] }\n`,
      );
      const env = cliEnv({ ATRIUM_CONFIG: config });
      const serve = () => startServe(['--services', 'inference', '--data-dir', dir], ['inference'], env);

      gateway = await serve();
      const base = gateway.urls.get('inference') as string;
      const streams = await Promise.all(Array.from({ length: IN_FLIGHT }, () => chat(base, secret, true)));
      for (const stream of streams) await stream.body?.getReader().read();
      for (let i = 0; i < COMPLETED; i++) expect((await chat(base, secret, false)).status).toBe(200);
      // A response is journalled at the end of the window in which it closed (the client has it after it
      // closed): what a kill -9 one window later finds is what the README promises. The slack is for timers
      // running late on a loaded machine, not for the journal.
      await new Promise((resolve) => setTimeout(resolve, JOURNAL_WINDOW_MS + SCHEDULING_SLACK_MS));
      await gateway.stop('SIGKILL');

      gateway = await serve();
      await withDatabase(url(), async (db) => {
        const usage = await usageOfKey(db, keyId, 0, Date.now() + 3_600_000);
        const sum = (field: 'requests' | 'prompt_tokens' | 'completion_tokens') =>
          usage.reduce((total, row) => total + row[field], 0);
        expect([sum('requests'), sum('prompt_tokens'), sum('completion_tokens')]).toEqual([
          COMPLETED,
          COMPLETED * PROMPT,
          COMPLETED * COMPLETION,
        ]);
        // The budget was charged from leases: at least what was served, the unreturned rest conservatively.
        expect((await findApiKey(db, keyId))?.period_used).toBeGreaterThanOrEqual(COMPLETED * (PROMPT + COMPLETION));
      });
      expect(await gateway.stop()).toBe(0);
      expect(readdirSync(journalDirOf(dir, url()))).toEqual([]);
    } finally {
      await gateway?.stop('SIGKILL');
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
