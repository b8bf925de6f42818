import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Account, findAccount } from '../storage/accounts.js';
import { type ApiKeyRow, findApiKey } from '../storage/api-keys.js';
import { roleIn } from '../storage/projects.js';
import type { InferenceDatabase } from '../storage/schema.js';
import type { UiSession } from '../storage/ui-sessions.js';
import { usageOfKey } from '../storage/usage.js';
import { editKey, managedKey, rotateKey } from '../tenancy/keys.js';
import { usageCsv, usagePerDay } from '../tenancy/usage-days.js';
import { manageKeyPage } from '../ui/key-pages.js';
import { signOutNav } from '../ui/pages.js';
import { keySettingsOf } from './key-form.js';
import { formOf, refusalOf, sendPage } from './ui-reply.js';
import type { UiSessions } from './ui-session.js';

const DAY_MS = 86_400_000;
/** The longest range of the per-day usage (page and CSV). */
const MAX_RANGE_DAYS = 400;

/** `?days=N` (default 30, at most 400) as the range [from, to) of whole UTC days ending today. */
export function usageRange(query: unknown, now: number): { from: number; to: number; days: number } {
  const text = (query as { days?: unknown } | undefined)?.days;
  const asked = typeof text === 'string' && /^\d{1,4}$/.test(text) ? Number(text) : 30;
  const days = Math.min(MAX_RANGE_DAYS, Math.max(1, asked));
  const to = now - (now % DAY_MS) + DAY_MS;
  return { from: to - days * DAY_MS, to, days };
}

export interface KeyUiOptions {
  models: () => readonly string[];
  clock: () => number;
}

/**
 * The pages of one key for an account that may change it (see `managedKey`): edit its alias, budget, period,
 * models, expiry and per-minute limits, rotate its secret, see and export its use per day. The CSV is also
 * open to every member of the project and to a session signed in with that key.
 */
export function registerKeyUiRoutes(
  scope: FastifyInstance,
  db: Kysely<InferenceDatabase>,
  sessions: UiSessions,
  options: KeyUiOptions,
): void {
  const { clock } = options;
  const keyIdOf = (request: FastifyRequest) => (request.params as { keyId: string }).keyId;

  async function signedIn(session: UiSession | undefined): Promise<Account> {
    const account = session?.account_id ? await findAccount(db, session.account_id) : undefined;
    if (!account) throw new HttpError(403, 'forbidden', 'sign in with an account for this');
    return account;
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    session: UiSession,
    account: Account,
    extra: { error?: string; rotated?: string; status?: number } = {},
  ) {
    const key = await managedKey(db, account, keyIdOf(request));
    await reply.server.admission.release(key.id, key.resource_id);
    const range = usageRange(request.query, clock());
    const [rows, creator] = await Promise.all([
      usageOfKey(db, key.id, range.from, range.to),
      key.created_by ? findAccount(db, key.created_by) : undefined,
    ]);
    const body = manageKeyPage({
      key: (await findApiKey(db, key.id)) ?? key,
      createdBy: creator?.email ?? null,
      models: options.models(),
      csrf: session.csrf,
      days: usagePerDay(rows, false),
      rangeDays: range.days,
      ...extra,
    });
    sendPage(
      reply,
      `Key ${key.alias}`,
      body,
      signOutNav(session.csrf, account.email, account.is_admin === 1),
      extra.status,
    );
  }

  scope.get('/keys/:keyId', async (request, reply) => {
    const session = await sessions.current(request);
    if (!session) return reply.redirect('/ui/', 303);
    return render(request, reply, session, await signedIn(session));
  });

  /** Runs a change of the key; a refusal comes back on the key's page. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    action: (account: Account, body: URLSearchParams) => Promise<ApiKeyRow & { secret?: string }>,
  ) {
    const body = formOf(request);
    const session = await sessions.checkForm(request, body);
    const account = await signedIn(session);
    let changed: (ApiKeyRow & { secret?: string }) | undefined;
    const refusal = await refusalOf(async () => {
      changed = await action(account, body);
    });
    if (refusal) return render(request, reply, session, account, { error: refusal.message, status: refusal.status });
    // Every process sees the change within a second; this one at once.
    if (changed) await reply.server.admission.release(changed.id, changed.resource_id);
    if (changed?.secret) return render(request, reply, session, account, { rotated: changed.secret });
    return reply.redirect(`/ui/keys/${keyIdOf(request)}`, 303);
  }

  scope.post('/keys/:keyId/edit', (request, reply) =>
    change(request, reply, (account, body) =>
      editKey(db, account, keyIdOf(request), keySettingsOf(body), new Set(options.models()), clock()),
    ),
  );

  scope.post('/keys/:keyId/rotate', (request, reply) =>
    change(request, reply, async (account) => {
      const { key, secret } = await rotateKey(db, account, keyIdOf(request), clock());
      return { ...key, secret };
    }),
  );

  scope.get('/keys/:keyId/usage.csv', async (request, reply) => {
    const session = await sessions.current(request);
    const key = await findApiKey(db, keyIdOf(request));
    if (!session || !key) throw new HttpError(404, 'not_found', 'API key not found');
    const account = session.account_id ? await findAccount(db, session.account_id) : undefined;
    const allowed =
      session.key_id === key.id ||
      (account && (account.is_admin === 1 || (await roleIn(db, key.project_id, account.id)) !== undefined));
    if (!allowed) throw new HttpError(403, 'forbidden', 'only members of the project can see the usage of its keys');
    const range = usageRange(request.query, clock());
    const rows = await usageOfKey(db, key.id, range.from, range.to);
    const file = `${key.alias.replace(/[^A-Za-z0-9._-]+/g, '_')}-usage.csv`;
    return reply
      .headers({
        'content-disposition': `attachment; filename="${file}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .type('text/csv; charset=utf-8')
      .send(usageCsv(key.alias, usagePerDay(rows, true)));
  });
}
