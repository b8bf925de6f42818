import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchService } from '@atrium/bench';
import {
  closeGracefully,
  createLogger,
  type HttpConfig,
  loadConfig,
  onShutdownSignal,
  type ServiceDefinition,
} from '@atrium/core';
import { inferenceService } from '@atrium/inference';
import { provenanceService } from '@atrium/provenance';
import type { FastifyInstance } from 'fastify';
import { atriumConfigSchema } from '../config.js';
import { HelpRequest, UsageError, wantsHelp } from '../usage.js';
import { ATRIUM_VERSION } from '../version.js';

const SERVICES = { inference: inferenceService, provenance: provenanceService, bench: benchService } as const;
type ServiceName = keyof typeof SERVICES;

function parseServices(list: string | undefined): ServiceName[] {
  if (list === undefined) return Object.keys(SERVICES) as ServiceName[];
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(name in SERVICES))
      throw new UsageError(`unknown service '${name}' (expected inference, provenance or bench)`);
  }
  if (names.length === 0) throw new UsageError('--services needs at least one service');
  return [...new Set(names)] as ServiceName[];
}

/** `--config`, else `ATRIUM_CONFIG`, else `./atrium.toml` when it exists. */
export function configFile(flag: string | undefined): string | undefined {
  if (flag) return flag;
  if (process.env.ATRIUM_CONFIG) return process.env.ATRIUM_CONFIG;
  return existsSync('atrium.toml') ? 'atrium.toml' : undefined;
}

interface Running {
  name: ServiceName;
  app: FastifyInstance;
  url: string;
  definition: ServiceDefinition;
  config: HttpConfig;
}

const SERVE_USAGE = `usage: atrium serve [--services inference,provenance,bench] [--config FILE] [--data-dir DIR]
Starts the services and keeps running until SIGTERM or SIGINT; 'atrium help' describes the options.
`;

export async function serve(args: string[]): Promise<void> {
  if (wantsHelp(args)) throw new HelpRequest(SERVE_USAGE);
  const { values } = parseArgs({
    args,
    options: { services: { type: 'string' }, config: { type: 'string' }, 'data-dir': { type: 'string' } },
    strict: true,
  });
  const names = parseServices(values.services);
  const overrides = values['data-dir'] ? { dataDir: values['data-dir'] } : {};
  const sources = { file: configFile(values.config), overrides };
  const config = loadConfig(atriumConfigSchema, sources);
  const dataDir = resolve(config.dataDir);
  const logger = createLogger(config.log);
  const running: Running[] = [];
  const stopAll = () => Promise.all(running.map((r) => closeGracefully(r.app, r.config.shutdownTimeoutMs)));
  try {
    for (const name of names) {
      const definition = SERVICES[name] as unknown as ServiceDefinition;
      const serviceConfig = config[name];
      const app = await definition.build(serviceConfig, {
        logger,
        dataDir,
        accessLog: config.log.access,
        readConfig: () => loadConfig(atriumConfigSchema, sources)[name],
      });
      await app.listen({ host: serviceConfig.bind, port: serviceConfig.port });
      const { port } = app.server.address() as AddressInfo;
      const host = serviceConfig.bind.includes(':') ? `[${serviceConfig.bind}]` : serviceConfig.bind;
      running.push({
        name,
        app,
        definition,
        config: serviceConfig,
        url: `${serviceConfig.tls ? 'https' : 'http'}://${host}:${port}`,
      });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  onShutdownSignal(async (signal) => {
    logger.info({ signal }, 'shutting down');
    await stopAll();
  });
  const lines = running.map((r) => `  ${r.name.padEnd(11)} ${r.definition.describe?.(r.config, r.url) ?? r.url}`);
  process.stdout.write(`Atrium ${ATRIUM_VERSION} (data: ${dataDir})\n${lines.join('\n')}\n`);
}
