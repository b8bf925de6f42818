import { closeGracefully } from '@atrium/core';
import { describeEachDialect, listen, silentLogger } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../src/index.js';
import { addGrant } from '../src/storage/projects.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { usageOfKey } from '../src/storage/usage.js';
import { editKey, revokeKey, rotateKey } from '../src/tenancy/keys.js';
import { startFixedUpstream } from './support/fixed-upstream.js';
import { seedTenant } from './support/tenancy.js';

const MODEL = 'acme/chat';
// biome-ignore lint/suspicious/noExplicitAny: response bodies checked field by field
type Body = any;

describeEachDialect('the project lifecycle and key management over HTTP', ({ dialect, url }) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  async function setup() {
    const upstream = await startFixedUpstream();
    cleanup.push(upstream.close);
    const config = inferenceConfigSchema.parse({
      port: 0,
      database: url(),
      auth: { demo: false },
      models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    });
    const database = await openInferenceDatabase(url());
    cleanup.push(database.close);
    const tenant = await seedTenant(database.db, {}, Date.now());
    const gateway = async () => {
      const app = await buildInferenceApp(config, { logger: silentLogger, dataDir: '/nonexistent', accessLog: false });
      const base = await listen(app);
      cleanup.push(() => closeGracefully(app, 2_000));
      return base;
    };
    return { db: database.db, tenant, gateway, models: new Set([MODEL]) };
  }

  /** One request on each `/v1` route: status and body. */
  const routes = (base: string, secret: string) => {
    const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    const answer = async (response: Promise<Response>) => {
      const r = await response;
      return { status: r.status, body: (await r.json()) as Body };
    };
    return {
      models: () => answer(fetch(`${base}/v1/models`, { headers: auth })),
      chat: () => answer(post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] })),
      embeddings: () => answer(post('/v1/embeddings', { model: MODEL, input: 'hi' })),
      messages: () =>
        answer(post('/v1/messages', { model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })),
    };
  };

  /** Sends requests until one is refused; when the first refusal came. */
  async function firstRefusal(call: () => Promise<{ status: number }>): Promise<number> {
    for (;;) {
      const { status } = await call();
      if (status >= 400) return Date.now();
    }
  }

  it("a grant's end refuses the project's keys within a second on every route, saying why; a new grant restores them", async () => {
    const { db, tenant, gateway } = await setup();
    const { secret } = await tenant.key({ alias: 'agent' });
    const bases = dialect === 'postgres' ? [await gateway(), await gateway()] : [await gateway()];
    const ends = Date.now() + 1_500;
    await db.updateTable('project_grant').set({ ends }).where('project_id', '=', tenant.project.id).execute();
    // Warm every process's key cache right before the end: it must not outlive the grant.
    for (const base of bases) expect((await routes(base, secret).chat()).status).toBe(200);
    const refusedAt = await Promise.all(bases.map((base) => firstRefusal(routes(base, secret).chat)));
    for (const at of refusedAt) expect(at - ends).toBeLessThan(1_000);
    for (const base of bases) {
      const api = routes(base, secret);
      for (const call of [api.models, api.chat, api.embeddings]) {
        const { status, body } = await call();
        expect(status).toBe(403);
        expect(body.error).toMatchObject({ type: 'permission_error', code: 'grant_ended' });
        expect(body.error.message).toMatch(
          /^The project's grant ended at \d{4}-\d\d-\d\dT[\d:]+Z: its API keys are refused/,
        );
      }
      const anthropic = await api.messages();
      expect(anthropic.status).toBe(403);
      expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
      expect(anthropic.body.error.message).toContain("The project's grant ended at");
    }
    await addGrant(db, tenant.project.id, Date.now() - 1, Date.now() + 86_400_000);
    await expect
      .poll(async () => (await routes(bases[0] as string, secret).chat()).status, { timeout: 2_000 })
      .toBe(200);
  });

  it('an expired key is refused saying so; other keys of the project keep working', async () => {
    const { tenant, gateway } = await setup();
    const base = await gateway();
    const expires = Date.now() + 800;
    const { secret } = await tenant.key({ alias: 'short', expires });
    const { secret: other } = await tenant.key({ alias: 'long' });
    expect((await routes(base, secret).models()).status).toBe(200);
    const refusedAt = await firstRefusal(routes(base, secret).models);
    expect(refusedAt - expires).toBeLessThan(1_000);
    const { status, body } = await routes(base, secret).chat();
    expect(status).toBe(401);
    expect(body.error).toMatchObject({ code: 'expired_api_key', type: 'authentication_error' });
    expect(body.error.message).toMatch(/^This API key expired at \d{4}-/);
    expect((await routes(base, other).chat()).status).toBe(200);
  });

  it('per-key requests per minute hold across gateway processes; a request beyond the key TPM is refused for good', async () => {
    const { tenant, gateway } = await setup();
    const { secret } = await tenant.key({ alias: 'slow', requestsPerMinute: 3 });
    const bases = dialect === 'postgres' ? [await gateway(), await gateway()] : [await gateway()];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => routes(bases[i % bases.length] as string, secret).chat()),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    const refused = answers.find((a) => a.status === 429)?.body;
    expect(refused?.error.message).toMatch(
      /^Rate limit reached on requests per minute \(RPM\) for this API key: limit 3/,
    );

    const { secret: narrow } = await tenant.key({ alias: 'narrow', tokensPerMinute: 10 });
    const response = await fetch(`${bases[0]}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${narrow}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(((await response.json()) as Body).error.message).toMatch(
      /^Request too large for the tokens per minute \(TPM\) limit of this API key: limit 10, /,
    );
  });

  it('rotation: the old secret is refused at once, the new one works with the same key and history; edits apply within a second', async () => {
    const { db, tenant, gateway, models } = await setup();
    const { secret, key } = await tenant.key({ alias: 'rotating' });
    const base = await gateway();
    expect((await routes(base, secret).chat()).status).toBe(200);
    const rotated = await rotateKey(db, tenant.member, key.id);
    expect(rotated.key.id).toBe(key.id);
    await expect.poll(async () => (await routes(base, secret).models()).status, { timeout: 1_000 }).toBe(401);
    expect((await routes(base, rotated.secret).chat()).status).toBe(200);
    await expect
      .poll(async () => (await usageOfKey(db, key.id, 0, Date.now() + 3_600_000)).reduce((n, r) => n + r.requests, 0), {
        timeout: 5_000,
      })
      .toBe(2);

    await editKey(db, tenant.member, key.id, { allowedModels: [], budgetTokens: 1 }, models);
    await expect
      .poll(async () => (await routes(base, rotated.secret).chat()).body.error?.code, { timeout: 1_000 })
      .toBe('insufficient_quota');
  });

  it('who may change a key: its creator and the PI; another member may not', async () => {
    const { db, tenant, models } = await setup();
    const { key } = await tenant.key({ alias: 'mine' });
    const other = await otherMember(db, tenant.project.id);
    await expect(editKey(db, other, key.id, { budgetTokens: 5 }, models)).rejects.toThrow(/keys they created/);
    await expect(rotateKey(db, other, key.id)).rejects.toThrow(/keys they created/);
    await expect(revokeKey(db, other, key.id)).rejects.toThrow(/keys they created/);
    expect((await editKey(db, tenant.pi, key.id, { budgetTokens: 5, alias: 'Renamed' }, models)).alias).toBe('Renamed');
    await tenant.key({ alias: 'taken' });
    await expect(editKey(db, tenant.member, key.id, { alias: ' TAKEN ' }, models)).rejects.toThrow(/already exists/);
    await expect(editKey(db, tenant.member, key.id, { expires: Date.now() - 1 }, models)).rejects.toThrow(/future/);
  });
});

async function otherMember(db: Kysely<InferenceDatabase>, projectId: string) {
  const { createAccount } = await import('../src/storage/accounts.js');
  const { setMember } = await import('../src/storage/projects.js');
  const account = await createAccount(db, {
    email: `other-${projectId}@example.org`,
    name: 'O',
    password: 'o-password',
  });
  await setMember(db, projectId, account.id, 'member');
  return account;
}
