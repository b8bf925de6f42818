import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { openInferenceDatabase } from '@atrium/inference';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { findApiKey } from '../../inference/src/storage/api-keys.js';
import { usageOfKey } from '../../inference/src/storage/usage.js';
import { startFixedUpstream } from '../../inference/test/support/fixed-upstream.js';
import { cliEnv, fundProject, inferenceOperator, type Served, startServe } from './run-cli.js';

const MODEL = 'acme/m';
// "Capital of France?" is estimated at 38 prompt tokens; with max_tokens 16 a request reserves 54 (less when
// its output is cut to what is left, at least 39).
const RESERVED = 54;
const BUDGET = 50 * RESERVED;

/** The usage a response reports: the recorded upstream answers 14 + 16 tokens, its stream 14 + 2. */
async function ask(client: OpenAI, stream: boolean): Promise<number> {
  const messages = [{ role: 'user' as const, content: 'Capital of France?' }];
  if (!stream) {
    const completion = await client.chat.completions.create({ model: MODEL, messages, max_tokens: 16 });
    return completion.usage?.total_tokens ?? Number.NaN;
  }
  const chunks = await client.chat.completions.create({
    model: MODEL,
    messages,
    max_tokens: 16,
    stream: true,
    stream_options: { include_usage: true },
  });
  let total = Number.NaN;
  for await (const chunk of chunks) if (chunk.usage) total = chunk.usage.total_tokens;
  return total;
}

describeEachDialect('two gateway processes on one database', ({ url }) => {
  it('share one key budget: 200 concurrent requests never overdraw it, what one leaves the other spends, and the stored use is what was served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-gateways-'));
    const upstream = await startFixedUpstream();
    const gateways: Served[] = [];
    try {
      const config = join(dir, 'atrium.toml');
      writeFileSync(
        config,
        `[inference]\ndatabase = "${url()}"\n[inference.auth]\ndemo = false\n` +
          `[[inference.models]]\nid = "${MODEL}"\ncontextLength = 4096\n` +
          `backend = { type = "upstream", replicas = ["${upstream.origin}"] }\n`,
      );
      const env = cliEnv({ ATRIUM_CONFIG: config });
      const operator = inferenceOperator(env);
      await fundProject(operator, 'race');
      const created = await operator(
        'create-key',
        ...['--project', 'race', '--alias', 'race', '--budget', String(BUDGET), '--period', 'month'],
      );
      const secret = /sk-[0-9A-Za-z]{40}/.exec(created)?.[0] ?? '';

      for (let i = 0; i < 2; i++)
        gateways.push(await startServe(['--services', 'inference', '--data-dir', dir], ['inference'], env));
      const clients = gateways.map(
        (g) => new OpenAI({ apiKey: secret, baseURL: g.urls.get('inference'), maxRetries: 0 }),
      );
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) => ask(clients[i % 2] as OpenAI, i % 4 >= 2)),
      );
      const served = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.flatMap((o) =>
        o.status === 'rejected' ? [o.reason as InstanceType<typeof OpenAI.APIError>] : [],
      );
      // The budget, or (rarely) what was left taken by concurrent requests while one was admitted.
      for (const e of refused)
        expect([429, ['insufficient_quota', 'rate_limit_exceeded'].includes(String(e.code))]).toEqual([e.status, true]);
      expect(served.length).toBeGreaterThan(0);
      // During the burst a request may be refused while the other process still holds part of its lease; each
      // gives back what it did not use within a second. After that, one process alone spends the budget down
      // to less than one request's reservation.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // A request uses at least 16 tokens, so a budget that holds is spent within BUDGET / 16 requests.
      let refusal: unknown;
      for (let i = 0; i <= BUDGET / 16 && refusal === undefined; i++) {
        const answer = await ask(clients[0] as OpenAI, i % 2 === 1).catch((error: unknown) => error);
        if (typeof answer === 'number') served.push(answer);
        else refusal = answer;
      }
      const last = refusal as InstanceType<typeof OpenAI.APIError> | undefined;
      expect([last?.status, last?.code]).toEqual([429, 'insufficient_quota']);
      const servedTokens = served.reduce((a, b) => a + b, 0);
      expect(BUDGET - servedTokens).toBeLessThan(RESERVED);
      // Stopping gives each process's unused leases back to the database.
      expect(await Promise.all(gateways.splice(0).map((g) => g.stop()))).toEqual([0, 0]);

      const database = await openInferenceDatabase(url());
      try {
        const key = await database.db.selectFrom('api_key').select('id').executeTakeFirstOrThrow();
        const stored = await findApiKey(database.db, key.id);
        expect(stored?.period_used).toBe(servedTokens);
        expect(servedTokens).toBeLessThanOrEqual(BUDGET);
        const usage = await usageOfKey(database.db, key.id, 0, Date.now() + 3_600_000);
        const sum = (field: 'requests' | 'prompt_tokens' | 'completion_tokens') =>
          usage.reduce((total, row) => total + row[field], 0);
        expect([sum('requests'), sum('prompt_tokens') + sum('completion_tokens')]).toEqual([
          served.length,
          servedTokens,
        ]);
      } finally {
        await database.close();
      }
    } finally {
      await Promise.all(gateways.map((g) => g.stop('SIGKILL')));
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
