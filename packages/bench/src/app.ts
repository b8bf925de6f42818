import type { AddressInfo } from 'node:net';
import { createHttpApp, type LogConfig, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { benchDatabaseUrl } from './admin.js';
import type { BenchConfig } from './config.js';
import { registerConsole } from './console/routes.js';
import { registerAlertRoutes } from './http/alert-routes.js';
import { registerAllowedRoutes } from './http/allowed-routes.js';
import { registerAuthRoutes } from './http/auth-routes.js';
import { registerBackupRoutes } from './http/backup-routes.js';
import type { BenchContext } from './http/context.js';
import { acceptDeprecatedInputs } from './http/deprecated-inputs.js';
import { registerDimensionRoutes } from './http/dimension-routes.js';
import { registerEmailChangeRoutes } from './http/email-change-routes.js';
import { formatBenchError } from './http/errors.js';
import { registerInvitationRoutes } from './http/invitation-routes.js';
import { registerApiKeyRoutes } from './http/key-routes.js';
import { registerMemberRoutes } from './http/member-routes.js';
import { registerMetricRoutes } from './http/metric-routes.js';
import { registerOAuthRoutes } from './http/oauth-routes.js';
import { recordOpenApi } from './http/openapi.js';
import { registerOrganizationRoutes } from './http/organization-routes.js';
import { registerPerfRoutes } from './http/perf-routes.js';
import { registerPlotRoutes } from './http/plot-routes.js';
import { registerProjectRoutes } from './http/project-routes.js';
import { registerReportRoutes } from './http/report-routes.js';
import { registerRootRoute } from './http/root-route.js';
import { registerRunRoutes } from './http/run-routes.js';
import { registerServerRoutes } from './http/server-routes.js';
import { registerThresholdRoutes } from './http/threshold-routes.js';
import { registerUserRoutes } from './http/user-routes.js';
import { jwtSecretFor } from './jwt-secret.js';
import { BenchMail } from './mail/outbox.js';
import { openBenchDatabase } from './storage/open.js';
import { consoleUrlOf } from './wire/console-url.js';
import { perfRenderer } from './workers/perf-threads.js';

export async function buildBenchApp(config: BenchConfig, context: ServiceContext): Promise<FastifyInstance> {
  const url = benchDatabaseUrl(config, context.dataDir);
  const database = await openBenchDatabase(url);
  const app = await createHttpApp({
    service: 'bench',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatBenchError,
    exposedHeaders: ['x-total-count'],
    largeBodyRoutes: /^\/v0\/(run|projects\/:project\/reports)$/,
  });
  const mail = new BenchMail(database.db, config.smtp, context.logger);
  mail.start();
  const perf = perfRenderer(database, {
    url,
    dialect: database.dialect,
    threads: config.perfThreads,
    logLevel: context.logger.level as LogConfig['level'],
  });
  app.addHook('onClose', async () => {
    await mail.close();
    await perf.close();
    await database.close();
  });
  const bench: BenchContext = {
    database,
    config,
    jwtSecret: jwtSecretFor(config, context.dataDir),
    dataDir: context.dataDir,
    mail,
    perf,
    consoleUrl: () => consoleUrlOf(config, (app.server.address() as AddressInfo | null)?.port ?? config.port),
  };
  const spec = recordOpenApi(app);
  app.get('/v0/server/spec', (_request, reply) => {
    reply.type('application/json').send(spec());
  });
  registerServerRoutes(app, bench);
  registerAuthRoutes(app, bench);
  registerOAuthRoutes(app, bench);
  registerBackupRoutes(app, bench);
  registerOrganizationRoutes(app, bench);
  registerMemberRoutes(app, bench);
  registerInvitationRoutes(app, bench);
  registerAllowedRoutes(app, bench);
  registerProjectRoutes(app, bench);
  registerApiKeyRoutes(app, bench);
  registerUserRoutes(app, bench);
  registerEmailChangeRoutes(app, bench);
  registerDimensionRoutes(app, bench);
  registerReportRoutes(app, bench);
  registerRunRoutes(app, bench);
  registerThresholdRoutes(app, bench);
  registerAlertRoutes(app, bench);
  registerMetricRoutes(app, bench);
  registerPerfRoutes(app, bench);
  registerPlotRoutes(app, bench);
  registerConsole(app, bench);
  registerRootRoute(app);
  acceptDeprecatedInputs(app);
  return app;
}
