import { HttpError, logProblem, normalizeError, OutboxMailer } from '@atrium/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AnnounceConfig } from '../announce/channel-config.js';
import type { Channel } from '../announce/channels.js';
import { ChannelSender } from '../announce/sender.js';
import type { ModelConfig, SmtpConfig } from '../config.js';
import { type Account, checkPassword, findAccount, normaliseEmail } from '../storage/accounts.js';
import { isOptedOut, setOptOut } from '../storage/announcements.js';
import { findApiKey, findApiKeyByHash } from '../storage/api-keys.js';
import { accountDashboard } from '../storage/dashboard.js';
import { findResource } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { serviceRequests } from '../storage/service-requests.js';
import type { UiSession } from '../storage/ui-sessions.js';
import { usageOfKey } from '../storage/usage.js';
import { createKey, revokeKey } from '../tenancy/keys.js';
import { parseResetPeriod, periodAt } from '../tenancy/period.js';
import {
  createResourceInPortal,
  PORTAL_CATEGORY,
  PORTAL_OFFERING,
  SERVICE_DESK_SERVICE,
} from '../tenancy/resources.js';
import { hashSecret } from '../tenancy/secrets.js';
import { approveServiceRequest, fileServiceRequest, rejectServiceRequest } from '../tenancy/service-desk.js';
import { usagePerDay } from '../tenancy/usage-days.js';
import { connectPage } from '../ui/connect-page.js';
import { html } from '../ui/html.js';
import { dailyUsage } from '../ui/key-pages.js';
import { OidcClient, type OidcSettings } from '../ui/oidc.js';
import { accountPage, keyPage, signInPage, signOutNav } from '../ui/pages.js';
import { keySettingsOf } from './key-form.js';
import { registerKeyUiRoutes, usageRange } from './key-ui-routes.js';
import { registerOidcRoutes } from './oidc-routes.js';
import { registerOperatorUiRoutes } from './operator-ui-routes.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { registerStatusRoutes } from './status-routes.js';
import { formOf as form, numberField, refusalOf, sendPage as send } from './ui-reply.js';
import { UiSessions } from './ui-session.js';

const HOUR_MS = 3_600_000;
const FORM_LIMIT = 64 * 1024;

export interface UiOptions {
  /** The models served now (the catalogue can be reloaded). */
  models: () => readonly ModelConfig[];
  /** Announcement emails go out through this server; without it they stay in the outbox. */
  smtp?: SmtpConfig | undefined;
  /** Chat channels (with their secrets read) every announcement is posted to, and the status page's settings. */
  announce: AnnounceConfig;
  channels: readonly Channel[];
  oidc?: OidcSettings | undefined;
  designatedOrganisation: string;
  clock?: () => number;
}

/**
 * The web UI under `/ui/`: server-rendered pages, forms with CSRF tokens, sessions in HTTP-only SameSite
 * cookies, throttled password sign-in. Signed in with an account: projects, grants, resources, keys (create,
 * revoke), requests, and for operators the pages under `/ui/operator/`; with an API key: that key's usage.
 * With SMTP configured, the announcement mailer runs alongside; with chat channels, the channel sender.
 */
export function registerUiRoutes(app: FastifyInstance, db: Kysely<InferenceDatabase>, options: UiOptions): void {
  const clock = options.clock ?? Date.now;
  const sessions = new UiSessions(db, clock);
  const oidc = options.oidc ? new OidcClient(options.oidc) : undefined;
  const modelIds = () => options.models().map((m) => m.id);
  const throttle = new SignInThrottle();
  const mailer = options.smtp ? new OutboxMailer(db, options.smtp, app.log, clock) : undefined;
  if (mailer) {
    mailer.start();
    app.addHook('onClose', () => mailer.close());
  }
  const channelSender = new ChannelSender(db, options.channels, options.announce, app.log, clock);
  channelSender.start();
  app.addHook('onClose', () => channelSender.close());

  app.register(
    async (scope) => {
      // Forms only: a body of any other type is refused (415) before it is read.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_LIMIT },
        (_request, body, done) => done(null, new URLSearchParams(body as string)),
      );
      scope.setErrorHandler(async (error, request, reply) => {
        const problem = normalizeError(error);
        logProblem(request, error, problem);
        if (problem.headers) reply.headers(problem.headers);
        send(
          reply,
          'Error',
          html`<section class="error" role="alert">${problem.message}</section><p><a href="/ui/">Back</a></p>`,
          await navOf(await sessions.current(request).catch(() => undefined)).catch(() => undefined),
          problem.status,
        );
      });

      /** The header navigation of a signed-in session (error pages too); none before signing in. */
      async function navOf(session: UiSession | undefined) {
        if (session?.key_id) {
          const key = await findApiKey(db, session.key_id);
          return signOutNav(session.csrf, `key “${key?.alias ?? ''}”`);
        }
        const account = session?.account_id ? await findAccount(db, session.account_id) : undefined;
        return session && account ? signOutNav(session.csrf, account.email, account.is_admin === 1) : undefined;
      }

      async function renderHome(
        request: FastifyRequest,
        reply: FastifyReply,
        session: UiSession | undefined,
        extra: { created?: { alias: string; secret: string }; error?: string; status?: number } = {},
      ) {
        const account = session?.account_id ? await findAccount(db, session.account_id) : undefined;
        if (session?.key_id) return renderKey(request, reply, session);
        if (!session || !account) {
          const csrf = sessions.signInToken(request, reply);
          return send(reply, 'Sign in', signInPage(csrf, extra.error, oidc?.settings.name), undefined, extra.status);
        }
        const now = clock();
        const isAdmin = account.is_admin === 1;
        const [projects, requests, optedOut] = await Promise.all([
          accountDashboard(db, account.id, now - 30 * 24 * HOUR_MS),
          isAdmin ? serviceRequests(db, 'open') : undefined,
          isOptedOut(db, account.id),
        ]);
        const body = accountPage({
          csrf: session.csrf,
          accountId: account.id,
          isAdmin,
          projects,
          models: modelIds(),
          designatedOrganisation: options.designatedOrganisation,
          now,
          created: extra.created,
          error: extra.error,
          requests,
          optedOut,
        });
        send(reply, 'Projects', body, signOutNav(session.csrf, account.email, isAdmin), extra.status);
      }

      async function renderKey(request: FastifyRequest, reply: FastifyReply, session: UiSession) {
        const key = session.key_id ? await findApiKey(db, session.key_id) : undefined;
        if (!key) throw new HttpError(404, 'not_found', 'this key no longer exists');
        await reply.server.admission.release(key.id, key.resource_id);
        const now = clock();
        const to = now - (now % HOUR_MS) + HOUR_MS;
        const from = to - 7 * 24 * HOUR_MS;
        const range = usageRange(request.query, now);
        const [rows, resource, dayRows] = await Promise.all([
          usageOfKey(db, key.id, from, to),
          findResource(db, key.resource_id),
          usageOfKey(db, key.id, range.from, range.to),
        ]);
        const window = periodAt(key.created, key.reset_period ? parseResetPeriod(key.reset_period) : undefined, now);
        const perModel = new Map<
          string,
          { model: string; requests: number; prompt_tokens: number; completion_tokens: number }
        >();
        for (const r of rows) {
          const m = perModel.get(r.model) ?? { model: r.model, requests: 0, prompt_tokens: 0, completion_tokens: 0 };
          m.requests += r.requests;
          m.prompt_tokens += r.prompt_tokens;
          m.completion_tokens += r.completion_tokens;
          perModel.set(r.model, m);
        }
        const body = keyPage({
          key,
          resource,
          window,
          used: key.period_start >= window.start ? key.period_used : 0,
          points: rows.map((r) => ({ hour: r.hour, model: r.model, tokens: r.prompt_tokens + r.completion_tokens })),
          from,
          to,
          perModel: [...perModel.values()],
        });
        const days = dailyUsage(key.id, usagePerDay(dayRows, false), range.days);
        send(reply, `Key ${key.alias}`, html`${body}${days}`, signOutNav(session.csrf, `key “${key.alias}”`));
      }

      /** Runs an account's form action; a refusal re-renders the page with the message. */
      async function accountAction(
        request: FastifyRequest,
        reply: FastifyReply,
        action: (account: Account, form: URLSearchParams) => Promise<{ alias: string; secret: string } | undefined>,
      ) {
        const body = form(request);
        const session = await sessions.checkForm(request, body);
        const account = session.account_id ? await findAccount(db, session.account_id) : undefined;
        if (!account) throw new HttpError(403, 'forbidden', 'sign in with an account for this');
        let created: { alias: string; secret: string } | undefined;
        const refusal = await refusalOf(async () => {
          created = await action(account, body);
        });
        if (refusal) return renderHome(request, reply, session, { error: refusal.message, status: refusal.status });
        if (created) return renderHome(request, reply, session, { created });
        return reply.redirect('/ui/', 303);
      }

      scope.get('/', async (request, reply) => renderHome(request, reply, await sessions.current(request)));

      registerStatusRoutes(scope, db, { statusPageUrl: options.announce.statusPageUrl, clock });

      scope.get('/connect', async (request, reply) => {
        const session = await sessions.current(request);
        const key = session?.key_id ? await findApiKey(db, session.key_id) : undefined;
        if (!session || (!key && !session.account_id)) return reply.redirect('/ui/', 303);
        const allowed = key?.allowed_models ? new Set(JSON.parse(key.allowed_models) as string[]) : undefined;
        const models = options.models().filter((m) => !allowed || allowed.has(m.id));
        const who = key ? `key “${key.alias}”` : 'account';
        send(
          reply,
          'Connect your client',
          connectPage(models, `${request.protocol}://${request.host}`),
          signOutNav(session.csrf, who),
        );
      });

      scope.post('/announcements/subscription', (request, reply) =>
        accountAction(request, reply, async (account, body) => {
          await setOptOut(db, account.id, body.get('opt_out') === '1');
          return undefined;
        }),
      );

      scope.post('/signin/password', async (request, reply) => {
        const body = form(request);
        sessions.checkSignIn(request, body);
        const email = normaliseEmail(body.get('email') ?? '');
        const now = clock();
        const wait = throttle.retryAfterMs(email, request.ip, now);
        if (wait > 0) {
          const minutes = Math.ceil(wait / 60_000);
          reply.header('retry-after', Math.ceil(wait / 1000));
          const error = `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
          return renderHome(request, reply, undefined, { error, status: 429 });
        }
        const account = await checkPassword(db, email, body.get('password') ?? '');
        if (!account) {
          throttle.failed(email, request.ip, now);
          return renderHome(request, reply, undefined, { error: 'Wrong email or password.', status: 401 });
        }
        throttle.succeeded(email, request.ip);
        await sessions.start(request, reply, { accountId: account.id });
        return reply.redirect('/ui/', 303);
      });

      scope.post('/signin/key', async (request, reply) => {
        const body = form(request);
        sessions.checkSignIn(request, body);
        const key = await findApiKeyByHash(db, hashSecret((body.get('key') ?? '').trim()));
        if (!key || key.revoked !== null)
          return renderHome(request, reply, undefined, { error: 'Unknown or revoked API key.', status: 401 });
        await sessions.start(request, reply, { keyId: key.id });
        return reply.redirect('/ui/', 303);
      });

      if (oidc) registerOidcRoutes(scope, db, oidc, sessions, clock);
      registerKeyUiRoutes(scope, db, sessions, { models: modelIds, clock });
      registerOperatorUiRoutes(scope, db, sessions, {
        models: options.models,
        smtp: options.smtp,
        mailer,
        channels: options.announce.channels,
        channelSender,
        clock,
      });

      scope.post('/signout', async (request, reply) => {
        await sessions.checkForm(request, form(request));
        await sessions.end(request, reply);
        return reply.redirect('/ui/', 303);
      });

      scope.post('/projects/:projectId/keys', (request, reply) =>
        accountAction(request, reply, async (account, body) => {
          const created = await createKey(
            db,
            account,
            { projectId: (request.params as { projectId: string }).projectId, ...keySettingsOf(body) },
            new Set(modelIds()),
            clock(),
          );
          return { alias: created.key.alias, secret: created.secret };
        }),
      );

      scope.post('/keys/:keyId/revoke', (request, reply) =>
        accountAction(request, reply, async (account) => {
          const key = await revokeKey(db, account, (request.params as { keyId: string }).keyId, clock());
          // This process's lease of the key goes now; other gateway processes drop theirs within a second.
          await reply.server.admission.release(key.id, key.resource_id);
          return undefined;
        }),
      );

      scope.post('/projects/:projectId/resource', (request, reply) =>
        accountAction(request, reply, async (account, body) => {
          const order = {
            projectId: (request.params as { projectId: string }).projectId,
            category: PORTAL_CATEGORY,
            offering: PORTAL_OFFERING,
            nodeHours: numberField(body, 'node_hours') ?? 0,
            cluster: body.get('cluster') ?? '',
          };
          await createResourceInPortal(db, account, order, options.designatedOrganisation, clock());
          return undefined;
        }),
      );

      scope.post('/projects/:projectId/service-request', (request, reply) =>
        accountAction(request, reply, async (account, body) => {
          const input = {
            projectId: (request.params as { projectId: string }).projectId,
            service: SERVICE_DESK_SERVICE,
            text: body.get('text') ?? '',
            nodeHours: numberField(body, 'node_hours') ?? 0,
            cluster: body.get('cluster') ?? '',
          };
          await fileServiceRequest(db, account, input, clock());
          return undefined;
        }),
      );

      for (const decision of ['approve', 'reject'] as const) {
        scope.post(`/requests/:requestId/${decision}`, (request, reply) =>
          accountAction(request, reply, async (account) => {
            const id = Number((request.params as { requestId: string }).requestId);
            if (!Number.isSafeInteger(id)) throw new HttpError(404, 'not_found', 'service request not found');
            const delivery = options.smtp ? 'smtp' : 'outbox';
            const decide = decision === 'approve' ? approveServiceRequest : rejectServiceRequest;
            await decide(db, account, id, clock(), delivery);
            return undefined;
          }),
        );
      }
    },
    { prefix: '/ui' },
  );
}
