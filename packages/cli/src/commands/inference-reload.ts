import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@atrium/core';
import {
  type CatalogueChange,
  diffCatalogues,
  embeddedModelPath,
  fingerprintOf,
  type InferenceConfig,
  inferenceDatabaseUrl,
  isNoChange,
  openInferenceDatabase,
  publishCatalogue,
  servedModelConfigs,
} from '@atrium/inference';
import { atriumConfigSchema } from '../config.js';
import { UsageError } from '../usage.js';
import { inferenceUsage } from './inference-help.js';
import { announceCommand, announceUrl, modelChangeAnnouncement } from './model-change-announcement.js';
import { configFile } from './serve.js';

const OPTIONS = {
  json: { type: 'boolean' },
  config: { type: 'string' },
  'data-dir': { type: 'string' },
  url: { type: 'string' },
} as const;

/** Where an operator on this machine reaches the inference service configured to listen on `config`. */
function serviceUrl(config: InferenceConfig): string {
  const host = ['0.0.0.0', '::', ''].includes(config.bind) ? '127.0.0.1' : config.bind;
  return `${config.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

const listed = (label: string, ids: string[]) => (ids.length > 0 ? [`  ${label.padEnd(8)} ${ids.join(', ')}`] : []);

function human(version: number, change: CatalogueChange, command: string, url: string): string {
  const lines = [
    `published catalogue version ${version}: every gateway process on this database loads its configured catalogue within a second`,
  ];
  if (isNoChange(change)) return `${[...lines, 'no model added, removed or changed'].join('\n')}\n`;
  lines.push(
    ...listed('added:', change.added),
    ...listed('removed:', change.removed),
    ...listed('changed:', change.changed),
  );
  lines.push('announce the change (edit the text as you like):', `  ${command}`, `or in the web UI: ${url}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `atrium inference reload`: checks the catalogue of the configuration (the sources `atrium serve` reads) and
 * raises the catalogue version in the database, which every gateway process on it polls each second; each then
 * re-reads its own configuration. Prints what changed since the catalogue the gateways last loaded, and a
 * pre-filled "model change" announcement.
 */
export async function inferenceReload(args: string[]): Promise<void> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${inferenceUsage('reload').trimEnd()}`);
  }
  const overrides = values['data-dir'] ? { dataDir: values['data-dir'] } : {};
  const config = loadConfig(atriumConfigSchema, { file: configFile(values.config), overrides });
  const dataDir = resolve(config.dataDir);
  const models = servedModelConfigs(config.inference);
  for (const model of models) embeddedModelPath(model, dataDir);
  const database = await openInferenceDatabase(inferenceDatabaseUrl(config.inference, dataDir));
  try {
    const now = Date.now();
    const after = fingerprintOf(models);
    const { version, previous } = await publishCatalogue(database.db, after, now);
    const change = diffCatalogues(previous, after);
    const announcement = modelChangeAnnouncement(change, now);
    const command = announceCommand(announcement);
    const url = announceUrl(values.url ?? serviceUrl(config.inference), announcement);
    const result = isNoChange(change)
      ? { version, ...change }
      : { version, ...change, announcement, announceCommand: command, announceUrl: url };
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : human(version, change, command, url));
  } finally {
    await database.close();
  }
}
