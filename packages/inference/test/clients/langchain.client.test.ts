import { beforeAll, describe, expect, it } from 'vitest';
import { type DriverRun, type Outcome, resultOf, runDriver } from './driver.js';
import { JS_SDKS, NODE, prepareClients } from './install.js';
import { HELLO, IMAGES_SEEN, TOOL_SAID } from './scripted-upstream.js';
import { clientSuite } from './suite.js';
import { NOTES } from './work-files.js';

const prepared = await prepareClients(NODE, JS_SDKS);

describe.skipIf(prepared.skip)('LangChain JS (ChatOpenAI, OpenAIEmbeddings) through the gateway', () => {
  const [node, dir] = (prepared.paths ?? []) as [string, string];
  const suite = clientSuite('langchain');
  let outcomes: Record<string, Outcome>;

  beforeAll(async () => {
    const { gateway } = suite;
    gateway.upstream.scriptToolCalls('READ-NOTES', { name: 'read_notes', arguments: {} });
    const run = (name: string, key = gateway.key): DriverRun => ({ name, case: name, key });
    const runs = [run('invoke'), run('stream'), run('tool'), run('image'), run('embedQuery'), run('embedDocuments')];
    const [spent, pastGrant] = await Promise.all([gateway.spentKey(), gateway.keyPastGrant()]);
    runs.push({ name: 'spent', case: 'invoke', key: spent }, { name: 'pastGrant', case: 'invoke', key: pastGrant });
    outcomes = await runDriver(suite, { node, dir }, { sdk: 'langchain', runs });
  }, 120_000);

  it('answers a plain prompt', () => {
    expect(resultOf(outcomes, 'invoke')).toEqual({ text: HELLO });
  });

  it('streams the answer in chunks', () => {
    const chunks = resultOf(outcomes, 'stream').chunks as string[];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(HELLO);
  });

  it('calls a bound tool and answers from its result', () => {
    expect(resultOf(outcomes, 'tool')).toEqual({ calls: 1, text: `${TOOL_SAID} ${NOTES}` });
  });

  it('sends an image', () => {
    expect(resultOf(outcomes, 'image')).toEqual({ text: `${IMAGES_SEEN} 1` });
  });

  it('embeds a query and documents', () => {
    expect(resultOf(outcomes, 'embedQuery')).toEqual({ embedding: [1, 0.5, -0.25, 0] });
    const many = resultOf(outcomes, 'embedDocuments').embeddings as number[][];
    expect(many.map((vector) => vector[0])).toEqual([1, 2]);
  });

  it('throws a spent budget within 10 s', () => {
    const outcome = outcomes.spent as Outcome;
    expect(outcome.error).toMatch(/budget/i);
    expect(outcome.ms).toBeLessThan(10_000);
  });

  it('throws a key past its grant', () => {
    expect(outcomes.pastGrant?.error).toMatch(/grant ended/);
  });

  it('tried to reach no host but the gateway', () => {
    expect(suite.trap.hosts).toEqual([]);
  });
});
