import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDialect } from '@atrium/core/testing';
import { OperatorCommands, openInferenceDatabase } from '@atrium/inference';
import { expect, it } from 'vitest';
import { recordedVllm, startFixedUpstream } from '../../inference/test/support/fixed-upstream.js';
import { cliEnv, inferenceOperator, type Served, startServe } from './run-cli.js';

const MODEL = 'acme/m';
/** Within a second of the change, as the README promises; the rest is slack for a loaded machine. */
const PROMISE_MS = 1_000;
const SLACK_MS = 500;

const CHAT = { model: MODEL, messages: [{ role: 'user', content: 'Capital of France?' }], max_tokens: 16 };
const MESSAGES = { model: MODEL, messages: [{ role: 'user', content: 'Capital of France?' }], max_tokens: 16 };

/** Every `/v1` route a key reaches: name and how to call it. */
const ROUTES: [string, string, unknown][] = [
  ['GET', '/v1/models', undefined],
  ['POST', '/v1/chat/completions', CHAT],
  ['POST', '/v1/embeddings', { model: MODEL, input: 'The quick brown fox jumps over the lazy dog.' }],
  ['POST', '/v1/messages', MESSAGES],
  ['POST', '/v1/messages/count_tokens', { model: MODEL, messages: MESSAGES.messages }],
];

/** The status of every route on every gateway, as `route@gateway` -> status. */
async function statuses(gateways: Served[], secret: string): Promise<Record<string, number>> {
  const calls = gateways.flatMap((g, i) =>
    ROUTES.map(async ([method, path, body]): Promise<[string, number]> => {
      const response = await fetch(`${g.urls.get('inference')}${path.slice('/v1'.length)}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await response.arrayBuffer();
      return [`${path}@${i}`, response.status];
    }),
  );
  return Object.fromEntries(await Promise.all(calls));
}

const every = (status: number, only?: (path: string) => boolean) =>
  Object.fromEntries(
    [0, 1].flatMap((i) => ROUTES.filter(([, p]) => !only || only(p)).map(([, p]) => [`${p}@${i}`, status])),
  );

describeEachDialect('revocation and limit changes reach every route of two gateway processes', ({ url }) => {
  it('a revoked key is refused everywhere within a second; a lowered limit applies everywhere within a second', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-revoke-'));
    const upstream = await startFixedUpstream((request, body, response) => {
      if (request.url !== '/tokenize') return recordedVllm(request, body, response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"count":7}');
    });
    const gateways: Served[] = [];
    try {
      const config = join(dir, 'atrium.toml');
      writeFileSync(
        config,
        `[inference]\ndatabase = "${url()}"\n[inference.auth]\ndemo = false\n` +
          `[[inference.models]]\nid = "${MODEL}"\ncontextLength = 4096\ncapabilities = { embeddings = true }\n` +
          `backend = { type = "upstream", replicas = ["${upstream.origin}"] }\n`,
      );
      const env = cliEnv({ ATRIUM_CONFIG: config });
      const operator = inferenceOperator(env);
      const database = await openInferenceDatabase(url());
      let doomed: string;
      let limited: string;
      try {
        const ops = new OperatorCommands(database.db);
        await ops.createProject('p', 'atrium');
        await ops.addGrant('p', Date.parse('2020-01-01'), Date.parse('2999-01-01'));
        await ops.setAllocation('p', 'c1', 10);
        await ops.setRate('c1', 1000, Date.parse('2020-01-01'));
        await ops.convertNodeHours('p', 'c1', 10);
        const models = new Set([MODEL]);
        doomed = (await ops.createKey('p', { alias: 'doomed' }, models)).secret;
        limited = (await ops.createKey('p', { alias: 'limited' }, models)).secret;
      } finally {
        await database.close();
      }

      for (let i = 0; i < 2; i++)
        gateways.push(await startServe(['--services', 'inference', '--data-dir', dir], ['inference'], env));
      // Both keys work everywhere, so every cache and lease is warm.
      expect(await statuses(gateways, doomed)).toEqual(every(200));
      expect(await statuses(gateways, limited)).toEqual(every(200));

      await operator('revoke-key', '--project', 'p', '--alias', 'doomed');
      await sleep(PROMISE_MS + SLACK_MS);
      expect(await statuses(gateways, doomed)).toEqual(every(401));

      // Every generation needs more than one token (its prompt and an output token): it can never fit a limit of
      // one token per minute, so it is refused as too large rather than told to wait (count_tokens needs one).
      await operator('set-limits', '--project', 'p', '--tpm', '1');
      await sleep(PROMISE_MS + SLACK_MS);
      const generation = (p: string) => p !== '/v1/models' && p !== '/v1/messages/count_tokens';
      const after = await statuses(gateways, limited);
      expect(
        Object.fromEntries(Object.entries(after).filter(([route]) => generation(route.split('@')[0] ?? ''))),
      ).toEqual(every(413, generation));
      expect(after['/v1/models@0']).toBe(200);
      expect(after['/v1/models@1']).toBe(200);
    } finally {
      await Promise.all(gateways.map((g) => g.stop('SIGKILL')));
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
