import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDialect, until } from '@atrium/core/testing';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { recordedVllm, startFixedUpstream, VLLM_STREAM } from '../../inference/test/support/fixed-upstream.js';
import { cliEnv, fundProject, inferenceOperator, runCli, type Served, startServe } from './run-cli.js';

const KEEP = 'acme/keep';
const OLD = 'acme/old';
const NEW = 'acme/new';
const BACK = 'acme/back';
/** A prompt the fake upstream holds until the test lets it go: a request in flight across the reload. */
const HOLD = 'hold me';

const model = (id: string, origin: string, served?: string) =>
  `[[inference.models]]\nid = "${id}"\ncontextLength = 4096\n` +
  `backend = { type = "upstream", replicas = ["${origin}"]${served ? `, model = "${served}"` : ''} }\n`;

interface Outcome {
  model: string;
  started: number;
  status: number;
  code: string | null | undefined;
}

/** One chat request through the official client: 200, or the status and code of the refusal. */
async function chat(client: OpenAI, id: string, stream: boolean, content = 'Capital of France?'): Promise<Outcome> {
  const messages = [{ role: 'user' as const, content }];
  const started = Date.now();
  try {
    if (stream) {
      const chunks = await client.chat.completions.create({ model: id, messages, max_tokens: 16, stream: true });
      let text = '';
      for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('Paris.');
    } else {
      const completion = await client.chat.completions.create({ model: id, messages, max_tokens: 16 });
      expect(completion.choices[0]?.message.content).toBe('Paris.');
    }
    return { model: id, started, status: 200, code: undefined };
  } catch (error) {
    if (!(error instanceof OpenAI.APIError)) throw error;
    return { model: id, started, status: error.status ?? 0, code: error.code };
  }
}

async function modelIds(base: string, secret: string): Promise<string[]> {
  const response = await fetch(`${base}/models`, { headers: { authorization: `Bearer ${secret}` } });
  const { data } = (await response.json()) as { data: { id: string }[] };
  return data.map((m) => m.id).sort();
}

/** Workers sending chat requests (streamed and not) in turn to `models` through `clients` until stopped. */
function startLoad(clients: OpenAI[], models: string[]): { stop(): Promise<Outcome[]> } {
  const outcomes: Outcome[] = [];
  let running = true;
  const workers = Array.from({ length: 6 }, async (_, worker) => {
    for (let n = 0; running; n++) {
      const client = clients[worker % clients.length] as OpenAI;
      outcomes.push(await chat(client, models[n % models.length] as string, worker % 3 === 0));
      await sleep(20);
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return outcomes;
    },
  };
}

/** Served before the reload; after it, only new requests to the removed model refused, with 404 model_not_found. */
function expectOnlyRemovedRefused(outcomes: Outcome[], removed: string, reloaded: number): void {
  expect(outcomes.filter((o) => o.started < reloaded && o.status === 200).length).toBeGreaterThan(0);
  const failed = outcomes.filter((o) => o.status !== 200);
  expect(failed.filter((o) => o.model !== removed)).toEqual([]);
  expect(new Set(failed.map((o) => `${o.status} ${o.code}`))).toEqual(new Set(['404 model_not_found']));
  const late = outcomes.filter((o) => o.started > reloaded);
  expect(late.filter((o) => o.model === removed).length).toBeGreaterThan(0);
  expect(late.filter((o) => o.model === removed && o.status === 200)).toEqual([]);
  expect(late.filter((o) => o.model !== removed && o.status === 200).length).toBeGreaterThan(0);
}

describeEachDialect('catalogue reload under load, two gateway processes on one database', ({ url }) => {
  it('removes, adds and changes models without a restart: in-flight requests finish, only the removed model is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-reload-'));
    const held: (() => void)[] = [];
    /** The upstream model name of every chat request, in arrival order. */
    const upstreamModels: string[] = [];
    const upstream = await startFixedUpstream((request, body, response) => {
      upstreamModels.push((JSON.parse(body) as { model: string }).model);
      if (!body.includes(HOLD)) return recordedVllm(request, body, response);
      if (!body.includes('"stream":true')) {
        held.push(() => recordedVllm(request, body, response));
        return;
      }
      const [first, ...rest] = VLLM_STREAM.split(/(?<=\n\n)/);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(first);
      held.push(() => response.end(rest.join('')));
    });
    const gateways: Served[] = [];
    const loads: { stop(): Promise<Outcome[]> }[] = [];
    try {
      const config = join(dir, 'atrium.toml');
      const writeConfig = (models: string, file = config) =>
        writeFileSync(file, `[inference]\ndatabase = "${url()}"\n[inference.auth]\ndemo = false\n${models}`);
      writeConfig(model(KEEP, upstream.origin, 'keep-v1') + model(OLD, upstream.origin));
      const env = cliEnv({ ATRIUM_CONFIG: config });
      const operator = inferenceOperator(env);
      await fundProject(operator, 'p');
      const secretOf = (text: string) => /sk-[0-9A-Za-z]{40}/.exec(text)?.[0] ?? '';
      const listed = secretOf(
        await operator('create-key', '--project', 'p', '--alias', 'listed', '--models', `${KEEP},${OLD}`),
      );
      const open = secretOf(await operator('create-key', '--project', 'p', '--alias', 'open'));

      for (let i = 0; i < 2; i++)
        gateways.push(await startServe(['--services', 'inference', '--data-dir', dir], ['inference'], env));
      const bases = gateways.map((g) => (g.urls.get('inference') ?? '').replace(/\/$/, ''));
      const clientOf = (base: string, secret = listed) =>
        new OpenAI({ apiKey: secret, baseURL: base, maxRetries: 0, timeout: 30_000 });
      const listedClients = bases.map((b) => clientOf(b));
      for (const base of bases) expect(await modelIds(base, open)).toEqual([KEEP, OLD]);

      // A steady load on both models through both gateways, streamed and not.
      const load = startLoad(listedClients, [KEEP, OLD]);
      loads.push(load);
      // Requests to the model about to go, held by the upstream across the reload.
      const inFlight = listedClients.flatMap((client) => [true, false].map((s) => chat(client, OLD, s, HOLD)));
      await until(async () => held.length === inFlight.length, 10_000, 'held requests reach the upstream');
      await sleep(300);

      writeConfig(model(KEEP, upstream.origin, 'keep-v2') + model(NEW, upstream.origin));
      const reload = await runCli(['inference', 'reload', '--url', 'https://llm.example.org'], env);
      expect([reload.code, reload.stderr]).toEqual([0, '']);
      expect(reload.stdout).toMatch(
        /\ngateway processes \(.*\):\n {2}\S+:\d+ {2}loaded\n {2}\S+:\d+ {2}loaded\nannounce the change/,
      );
      expect(reload.stdout.startsWith('published catalogue version 1\n')).toBe(true);
      expect(reload.stdout).toContain(
        `changed since the catalogue the gateways last loaded:\n  added:   ${NEW}\n  removed: ${OLD}\n  changed: ${KEEP}\n`,
      );
      expect(reload.stdout).toContain(
        `atrium inference announce --kind model_change --title '${NEW} added; ${OLD} removed; ${KEEP} changed'`,
      );
      const link = /https:\/\/llm\.example\.org\/ui\/operator\/announcements\?\S+/.exec(reload.stdout)?.[0] ?? '';
      expect(new URL(link).searchParams.get('kind')).toBe('model_change');
      for (const base of bases) {
        const ms = await until(
          async () => (await modelIds(base, open)).join() === [NEW, KEEP].sort().join(),
          5_000,
          `${base} lists the new catalogue`,
        );
        expect(ms).toBeLessThan(2_500);
      }
      const reloaded = Date.now();
      await sleep(500);

      // The held requests to the removed model are still open; let them finish on the old definition.
      for (const release of held.splice(0)) release();
      expect((await Promise.all(inFlight)).map((o) => o.status)).toEqual([200, 200, 200, 200]);
      expectOnlyRemovedRefused(await load.stop(), OLD, reloaded);
      // The changed upstream name applies to new requests; the key listing the removed model keeps the other.
      expect(upstreamModels.at(-1)).toBe('keep-v2');
      expect(await chat(clientOf(bases[0] as string, open), NEW, false)).toMatchObject({ status: 200 });
      expect(await modelIds(bases[1] as string, listed)).toEqual([KEEP]);
      const messages = await fetch(`${bases[1]}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': listed, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: OLD, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(messages.status).toBe(404);
      expect(((await messages.json()) as { error: { type: string } }).error.type).toBe('not_found_error');

      // A configuration that does not load changes nothing: the command refuses it, and when the processes'
      // own configuration is the broken one, it reports that each failed and serves its previous catalogue.
      const intact = join(dir, 'intact.toml');
      writeConfig(model(KEEP, upstream.origin, 'keep-v2') + model(NEW, upstream.origin), intact);
      writeConfig(`${model(KEEP, upstream.origin)}[[inference.models]]\nid = "broken`);
      expect((await runCli(['inference', 'reload'], env)).code).toBe(2);
      const refused = await runCli(['inference', 'reload', '--config', intact], env);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        'atrium: 2 of 2 gateway processes did not load catalogue version 2\n',
      ]);
      expect(
        refused.stdout.match(/failed, serves its previous catalogue: config error: file .*: invalid TOML/g),
      ).toHaveLength(2);
      gateways[0]?.child.kill('SIGHUP');
      await sleep(1_500);
      for (const base of bases) expect(await modelIds(base, open)).toEqual([NEW, KEEP].sort());

      // SIGHUP reloads the process that gets it, under load, the same way.
      const [signalled, other] = bases.map((b) => clientOf(b, open)) as [OpenAI, OpenAI];
      const hupLoad = startLoad([signalled], [KEEP, NEW]);
      loads.push(hupLoad);
      const hupInFlight = [true, false].map((s) => chat(signalled, NEW, s, HOLD));
      await until(async () => held.length === hupInFlight.length, 10_000, 'held requests reach the upstream');
      writeConfig(model(KEEP, upstream.origin) + model(BACK, upstream.origin));
      gateways[0]?.child.kill('SIGHUP');
      await until(
        async () => (await modelIds(bases[0] as string, open)).join() === [BACK, KEEP].sort().join(),
        5_000,
        'SIGHUP loads the catalogue',
      );
      const hupReloaded = Date.now();
      await sleep(500);
      for (const release of held.splice(0)) release();
      expect((await Promise.all(hupInFlight)).map((o) => o.status)).toEqual([200, 200]);
      expectOnlyRemovedRefused(await hupLoad.stop(), NEW, hupReloaded);
      expect(await chat(signalled, BACK, true)).toMatchObject({ status: 200 });
      // The other process got no signal and no new version.
      expect(await modelIds(bases[1] as string, open)).toEqual([NEW, KEEP].sort());
      expect(await chat(other, NEW, false)).toMatchObject({ status: 200 });
      expect(await Promise.all(gateways.splice(0).map((g) => g.stop()))).toEqual([0, 0]);
    } finally {
      await Promise.allSettled(loads.map((l) => l.stop()));
      for (const release of held.splice(0)) release();
      await Promise.all(gateways.map((g) => g.stop('SIGKILL')));
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
