import { HttpError, latestOutbox, type OutboxMailer } from '@atrium/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ChannelConfig } from '../announce/channel-config.js';
import type { ChannelSender } from '../announce/sender.js';
import type { ModelConfig, SmtpConfig } from '../config.js';
import { type Account, findAccount } from '../storage/accounts.js';
import { latestDeliveries } from '../storage/announcement-deliveries.js';
import { nodeHourRates } from '../storage/rates.js';
import { resourcesWithProjects } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { recentTopUps } from '../storage/top-ups.js';
import type { UiSession } from '../storage/ui-sessions.js';
import { postAnnouncement } from '../tenancy/announcements.js';
import { OperatorCommands } from '../tenancy/operator.js';
import { setLimitsOfProject, topUpCredits } from '../tenancy/resources.js';
import type { Html } from '../ui/html.js';
import { announcementsPage, modelsPage, ratesPage, resourcesPage } from '../ui/operator-pages.js';
import { OPERATOR_PAGES, type OperatorPage, signOutNav } from '../ui/pages.js';
import { formOf, numberField, refusalOf, sendPage } from './ui-reply.js';
import type { UiSessions } from './ui-session.js';

export interface OperatorUiOptions {
  models: () => readonly ModelConfig[];
  smtp: SmtpConfig | undefined;
  /** Present when SMTP is configured: posting an announcement wakes it. */
  mailer: OutboxMailer | undefined;
  /** The configured chat channels (shown without their secrets) and the sender posting to them. */
  channels: readonly ChannelConfig[];
  channelSender: ChannelSender;
  clock: () => number;
}

const limitOf = (form: URLSearchParams, name: string) => numberField(form, name) ?? null;

/**
 * The operators' pages under `/ui/operator/`: node-hour rates, credit top-ups and resource limits, the model
 * catalogue, announcements with the outbox. Only accounts with the admin role see them; forms carry the CSRF token.
 */
export function registerOperatorUiRoutes(
  scope: FastifyInstance,
  db: Kysely<InferenceDatabase>,
  sessions: UiSessions,
  options: OperatorUiOptions,
): void {
  const { clock } = options;

  async function operatorOf(session: UiSession | undefined): Promise<{ session: UiSession; operator: Account }> {
    if (!session) throw new HttpError(401, 'signed_out', 'Sign in with an operator account to see this page.');
    const account = session.account_id ? await findAccount(db, session.account_id) : undefined;
    if (account?.is_admin !== 1) throw new HttpError(403, 'forbidden', 'Only operators can see this page.');
    return { session, operator: account };
  }

  type Query = Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const bodies: Record<OperatorPage, (csrf: string, error: string | undefined, query: Query) => Promise<Html>> = {
    rates: async (csrf, error) => ratesPage({ csrf, now: clock(), rates: await nodeHourRates(db), error }),
    resources: async (csrf, error) => {
      const [resources, topUps] = await Promise.all([resourcesWithProjects(db), recentTopUps(db, 20)]);
      return resourcesPage({ csrf, resources, topUps, error });
    },
    models: async () => modelsPage(options.models()),
    announcements: async (csrf, error, { kind, title, body, starts, ends }) => {
      const [outbox, deliveries] = await Promise.all([latestOutbox(db, 50), latestDeliveries(db, 50)]);
      const { channels, smtp } = options;
      const draft = { kind: text(kind), title: text(title), body: text(body), starts: text(starts), ends: text(ends) };
      return announcementsPage({ csrf, outbox, deliveries, channels, smtp, error, draft });
    },
  };

  async function render(
    reply: FastifyReply,
    name: OperatorPage,
    { session, operator }: { session: UiSession; operator: Account },
    refusal?: HttpError,
    query: Query = {},
  ) {
    const body = await bodies[name](session.csrf, refusal?.message, query);
    sendPage(reply, OPERATOR_PAGES[name], body, signOutNav(session.csrf, operator.email, true), refusal?.status);
  }

  for (const name of Object.keys(OPERATOR_PAGES) as OperatorPage[]) {
    scope.get(`/operator/${name}`, async (request, reply) => {
      const signedIn = await operatorOf(await sessions.current(request));
      return render(reply, name, signedIn, undefined, request.query as Query);
    });
  }

  /** A signed POST from an operator; a refusal is shown on the page, success goes back to it. */
  const action =
    (name: OperatorPage, run: (operator: Account, form: URLSearchParams, request: FastifyRequest) => Promise<void>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const form = formOf(request);
      const signedIn = await operatorOf(await sessions.checkForm(request, form));
      const refusal = await refusalOf(() => run(signedIn.operator, form, request));
      if (refusal) return render(reply, name, signedIn, refusal);
      return reply.redirect(`/ui/operator/${name}`, 303);
    };
  const projectId = (request: FastifyRequest) => (request.params as { projectId: string }).projectId;

  scope.post(
    '/operator/rates',
    action('rates', async (_operator, form) => {
      await new OperatorCommands(db).setRate(
        form.get('cluster') ?? '',
        numberField(form, 'rate') ?? Number.NaN,
        clock(),
      );
    }),
  );

  scope.post(
    '/operator/projects/:projectId/top-up',
    action('resources', (operator, form, request) =>
      topUpCredits(db, operator, projectId(request), numberField(form, 'credits') ?? Number.NaN, clock()),
    ),
  );

  scope.post(
    '/operator/projects/:projectId/limits',
    action('resources', (operator, form, request) =>
      setLimitsOfProject(db, operator, projectId(request), {
        requestsPerMinute: limitOf(form, 'requests_per_minute'),
        tokensPerMinute: limitOf(form, 'tokens_per_minute'),
        concurrentRequests: limitOf(form, 'concurrent_requests'),
      }),
    ),
  );

  scope.post(
    '/operator/announcements',
    action('announcements', async (operator, form) => {
      const time = (name: string) => Date.parse(`${form.get(name) ?? ''}Z`);
      const input = {
        kind: form.get('kind') ?? '',
        title: form.get('title') ?? '',
        body: form.get('body') ?? '',
        starts: time('starts'),
        ends: time('ends'),
      };
      const email = options.mailer ? 'smtp' : 'outbox';
      await postAnnouncement(db, operator, input, clock(), email, options.channelSender.channelNames);
      options.mailer?.kick();
      options.channelSender.kick();
    }),
  );
}
