import { join } from 'node:path';
import { createHttpApp, type Logger, type ServiceContext } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ProvenanceConfig } from './config.js';
import { apiPlugin } from './http/api-plugin.js';
import { browseRoutes } from './http/browse-routes.js';
import { formatProvenanceError } from './http/errors.js';
import { replyConventions } from './http/reply-conventions.js';
import { type OpenedSource, openSource } from './open-source.js';
import { countNodes, countNodesByDay, countNodeTypes } from './storage/aiida/nodes.js';
import { QueryTimeoutError } from './storage/aiida/sqlite-pool.js';
import { recordArchive } from './storage/archives.js';
import { openProvenanceDatabase } from './storage/open.js';
import type { ProvenanceDatabase } from './storage/schema.js';

async function openSources(config: ProvenanceConfig, cacheRoot: string): Promise<OpenedSource[]> {
  const opened: OpenedSource[] = [];
  try {
    for (const source of config.sources) opened.push(await openSource(source, cacheRoot, config.queryTimeoutMs));
  } catch (error) {
    await Promise.all(opened.map((s) => s.close()));
    throw error;
  }
  return opened;
}

/**
 * Records each archive in the index and computes its slow aggregates once, before serving; aggregates
 * that outlive the statement deadline (huge archives) are left to the requests that need them.
 */
async function prepareArchives(sources: OpenedSource[], db: Kysely<ProvenanceDatabase>, logger: Logger): Promise<void> {
  for (const source of sources) {
    if (!source.archive) continue;
    await Promise.all([countNodeTypes(source.store), countNodesByDay(source.store)]).catch((error: unknown) => {
      if (!(error instanceof QueryTimeoutError)) throw error;
      logger.warn({ source: source.name }, 'node statistics outlive queryTimeoutMs: not precomputed');
    });
    await recordArchive(db, {
      sha256: source.archive.sha256,
      path: source.archive.path,
      format_version: source.archive.formatVersion,
      node_count: await countNodes(source.store),
      loaded_at: Date.now(),
    });
  }
}

export async function buildProvenanceApp(config: ProvenanceConfig, context: ServiceContext): Promise<FastifyInstance> {
  const database = await openProvenanceDatabase(config.database ?? `sqlite:${join(context.dataDir, 'provenance.db')}`);
  const sources = await openSources(config, config.cacheDir ?? join(context.dataDir, 'provenance-cache')).catch(
    async (error) => {
      await database.close();
      throw error;
    },
  );
  try {
    await prepareArchives(sources, database.db, context.logger);
  } catch (error) {
    await Promise.all(sources.map((s) => s.close()));
    await database.close();
    throw error;
  }
  const app = await createHttpApp({
    service: 'provenance',
    http: config,
    logger: context.logger,
    accessLog: context.accessLog,
    formatError: formatProvenanceError,
    exposedHeaders: ['x-total-count', 'link'],
    largeBodyRoutes: /\/api\/v4\/querybuilder$/,
  });
  app.addHook('onClose', async () => {
    await Promise.all(sources.map((s) => s.close()));
    await database.close();
  });
  replyConventions(app);
  const byName = new Map(sources.map((s) => [s.name, s]));
  const options = { aiidaVersion: config.aiidaVersion, sources: byName, queryTimeoutMs: config.queryTimeoutMs };
  const [first] = sources;
  if (first) await app.register(apiPlugin(first, options));
  for (const source of sources) await app.register(apiPlugin(source, options), { prefix: `/${source.name}` });
  await app.register(browseRoutes(sources, config.queryTimeoutMs));
  return app;
}
