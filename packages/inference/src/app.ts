import { createHttpApp, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { resolveChannels } from './announce/channels.js';
import { Catalogue } from './catalogue.js';
import { CatalogueReloader } from './catalogue-reload.js';
import type { InferenceConfig } from './config.js';
import { registerBearerAuth } from './http/auth.js';
import { registerChatRoutes } from './http/chat-routes.js';
import { registerEmbeddingRoutes } from './http/embedding-routes.js';
import { formatInferenceError } from './http/errors.js';
import { registerMessagesRoutes } from './http/messages-routes.js';
import { registerModelRoutes } from './http/model-routes.js';
import { registerResponsesRoutes } from './http/responses-routes.js';
import { registerUiRoutes } from './http/ui-routes.js';
import { inferenceDatabaseUrl, openInferenceDatabase } from './storage/open.js';
import { journalDirOf } from './storage/usage-journal.js';
import { openTenancy } from './tenancy/runtime.js';

export async function buildInferenceApp(
  config: InferenceConfig,
  context: ServiceContext<InferenceConfig>,
): Promise<FastifyInstance> {
  const channels = resolveChannels(config.announce.channels);
  const databaseUrl = inferenceDatabaseUrl(config, context.dataDir);
  const database = await openInferenceDatabase(databaseUrl);
  const logger = context.logger.child({ service: 'inference' });
  let catalogue: Catalogue;
  try {
    catalogue = await Catalogue.open(config, context.dataDir, logger);
  } catch (error) {
    await database.close();
    throw error;
  }
  const app = await createHttpApp({
    service: 'inference',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatInferenceError,
    largeBodyRoutes: /^\/v1\//,
    metrics: () => catalogue.connectionWaits.render(),
  });
  const tenancy = await openTenancy(
    database.db,
    config,
    catalogue.list,
    context.logger,
    Date.now,
    journalDirOf(context.dataDir, databaseUrl),
  );
  const reloader = await CatalogueReloader.start(catalogue, database.db, context.readConfig ?? (() => config), logger);
  app.decorate('admission', tenancy.admission);
  app.addHook('onClose', async () => {
    await reloader.close();
    await catalogue.close();
    await tenancy.close();
    await database.close();
  });
  // A reload closes what it dropped only after the requests that arrived before it have ended.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/v1/')) catalogue.pin(reply.raw);
    done();
  });
  registerBearerAuth(app, tenancy.keys);
  registerModelRoutes(app, () => catalogue.list, config.ownedBy);
  registerUiRoutes(app, database.db, {
    models: () => catalogue.list,
    smtp: config.smtp,
    announce: config.announce,
    channels,
    designatedOrganisation: config.tenancy.designatedOrganisation,
    oidc: config.oidc,
  });
  registerChatRoutes(app, catalogue, new Set(config.media.allowedHosts));
  registerEmbeddingRoutes(app, catalogue);
  registerMessagesRoutes(app, catalogue, new Set(config.media.allowedHosts));
  registerResponsesRoutes(app, catalogue, new Set(config.media.allowedHosts));
  return app;
}
