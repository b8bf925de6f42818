import { beforeAll, describe, expect, it } from 'vitest';
import { type DriverRun, type Outcome, resultOf, runDriver } from './driver.js';
import { JS_SDKS, NODE, prepareClients } from './install.js';
import { HELLO, IMAGES_SEEN, TOOL_SAID } from './scripted-upstream.js';
import { clientSuite } from './suite.js';
import { NOTES } from './work-files.js';

const prepared = await prepareClients(NODE, JS_SDKS);

/** The providers a user picks for an OpenAI-compatible or Anthropic server, and whether they embed. */
const PROVIDERS = {
  /** `@ai-sdk/openai-compatible`: chat completions. */
  'openai-compatible': { embeddings: true },
  /** `@ai-sdk/openai` with `openai.chat(model)`: chat completions. */
  'openai-chat': { embeddings: true },
  /** `@ai-sdk/anthropic`: messages. */
  anthropic: { embeddings: false },
  /** `@ai-sdk/openai`'s default, `openai(model)`: the Responses API. */
  openai: { embeddings: true },
} as const;
type Provider = keyof typeof PROVIDERS;

describe.skipIf(prepared.skip)('Vercel AI SDK through the gateway', () => {
  const [node, dir] = (prepared.paths ?? []) as [string, string];
  const suite = clientSuite('ai-sdk');
  const outcomes = {} as Record<Provider, Record<string, Outcome>>;

  beforeAll(async () => {
    const { gateway } = suite;
    gateway.upstream.scriptToolCalls('READ-NOTES', { name: 'read_notes', arguments: {} });
    const [spent, pastGrant] = await Promise.all([gateway.spentKey(), gateway.keyPastGrant()]);
    await Promise.all(
      (Object.keys(PROVIDERS) as Provider[]).map(async (provider) => {
        const run = (name: string, key = gateway.key): DriverRun => ({ name, case: name, key });
        const runs = [run('generate'), run('stream'), run('tool'), run('image')];
        if (PROVIDERS[provider].embeddings) runs.push(run('embed'), run('embedMany'));
        runs.push(
          { name: 'spent', case: 'generate', key: spent },
          { name: 'pastGrant', case: 'generate', key: pastGrant },
        );
        outcomes[provider] = await runDriver(suite, { node, dir }, { sdk: 'ai-sdk', provider, runs });
      }),
    );
  }, 120_000);

  describe.each(Object.keys(PROVIDERS) as Provider[])('provider %s', (provider) => {
    it('generates a plain answer', () => {
      expect(resultOf(outcomes[provider], 'generate')).toEqual({ text: HELLO });
    });

    it('streams the answer in chunks', () => {
      const chunks = resultOf(outcomes[provider], 'stream').chunks as string[];
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.join('')).toBe(HELLO);
    });

    it('calls a tool and answers from its result', () => {
      expect(resultOf(outcomes[provider], 'tool')).toEqual({ text: `${TOOL_SAID} ${NOTES}`, steps: 2 });
    });

    it('sends an image', () => {
      expect(resultOf(outcomes[provider], 'image')).toEqual({ text: `${IMAGES_SEEN} 1` });
    });

    it.runIf(PROVIDERS[provider].embeddings)('embeds one value and many', () => {
      expect(resultOf(outcomes[provider], 'embed')).toEqual({ embedding: [1, 0.5, -0.25, 0] });
      const many = resultOf(outcomes[provider], 'embedMany').embeddings as number[][];
      expect(many.map((vector) => vector[0])).toEqual([1, 2]);
    });

    it('throws a spent budget within 10 s', () => {
      const outcome = outcomes[provider].spent as Outcome;
      expect(outcome.error).toMatch(/budget/i);
      expect(outcome.ms).toBeLessThan(10_000);
    });

    it('throws a key past its grant', () => {
      expect(outcomes[provider].pastGrant?.error).toMatch(/grant ended/);
    });
  });

  it('tried to reach no host but the gateway', () => {
    expect(suite.trap.hosts).toEqual([]);
  });
});
