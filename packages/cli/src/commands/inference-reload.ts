import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
  type ProcessLoad,
  processLoads,
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
  wait: { type: 'string' },
} as const;

/** A gateway process refreshes its row every 5 s while it runs; older rows are of processes gone. */
const ALIVE_MS = 15_000;
const DEFAULT_WAIT_S = 10;

interface ProcessOutcome {
  process: string;
  state: 'loaded' | 'failed' | 'no answer';
  error?: string;
}

/** Waits until every running gateway process has acted on `version`, or `waitMs` passed. */
async function awaitProcesses(
  db: Parameters<typeof processLoads>[0],
  version: number,
  waitMs: number,
): Promise<ProcessOutcome[]> {
  const deadline = Date.now() + waitMs;
  let loads: ProcessLoad[];
  for (;;) {
    loads = await processLoads(db, Date.now() - ALIVE_MS);
    if (loads.every((l) => l.version >= version) || Date.now() >= deadline) break;
    await sleep(200);
  }
  return loads.map((l) => {
    if (l.version < version) return { process: l.process, state: 'no answer' };
    return l.error === null
      ? { process: l.process, state: 'loaded' }
      : { process: l.process, state: 'failed', error: l.error };
  });
}

/** Where an operator on this machine reaches the inference service configured to listen on `config`. */
function serviceUrl(config: InferenceConfig): string {
  const host = ['0.0.0.0', '::', ''].includes(config.bind) ? '127.0.0.1' : config.bind;
  return `${config.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

const listed = (label: string, ids: string[]) => (ids.length > 0 ? [`  ${label.padEnd(8)} ${ids.join(', ')}`] : []);

function processLines(processes: ProcessOutcome[], waitS: number): string[] {
  if (processes.length === 0)
    return ['no gateway process is running on this database: each loads its configured catalogue when it starts'];
  return [
    'gateway processes (each loads the catalogue of its own configuration):',
    ...processes.map((p) => {
      if (p.state === 'failed') return `  ${p.process}  failed, serves its previous catalogue: ${p.error}`;
      return `  ${p.process}  ${p.state === 'loaded' ? 'loaded' : `no answer within ${waitS} s`}`;
    }),
  ];
}

function human(version: number, processes: string[], change: CatalogueChange, command: string, url: string): string {
  const lines = [`published catalogue version ${version}`];
  if (isNoChange(change)) lines.push('no model added, removed or changed');
  else
    lines.push(
      'changed since the catalogue the gateways last loaded:',
      ...listed('added:', change.added),
      ...listed('removed:', change.removed),
      ...listed('changed:', change.changed),
    );
  lines.push(...processes);
  if (!isNoChange(change))
    lines.push('announce the change (edit the text as you like):', `  ${command}`, `or in the web UI: ${url}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `atrium inference reload`: checks the catalogue of the configuration (the sources `atrium serve` reads) and
 * raises the catalogue version in the database, which every gateway process on it polls each second; each then
 * re-reads its own configuration. Waits until each running process has loaded it (or failed to), and prints
 * that, what changed since the catalogue the gateways last loaded, and a pre-filled "model change" announcement.
 * Exits 1 when a process did not load it.
 */
export async function inferenceReload(args: string[]): Promise<void> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${inferenceUsage('reload').trimEnd()}`);
  }
  const waitS = values.wait === undefined ? DEFAULT_WAIT_S : Number(values.wait);
  if (!Number.isFinite(waitS) || waitS < 0) throw new UsageError('--wait must be a number of seconds');
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
    const processes = await awaitProcesses(database.db, version, waitS * 1000);
    const result = isNoChange(change)
      ? { version, processes, ...change }
      : { version, processes, ...change, announcement, announceCommand: command, announceUrl: url };
    process.stdout.write(
      values.json
        ? `${JSON.stringify(result)}\n`
        : human(version, processLines(processes, waitS), change, command, url),
    );
    const missing = processes.filter((p) => p.state !== 'loaded').length;
    if (missing > 0)
      throw new Error(`${missing} of ${processes.length} gateway processes did not load catalogue version ${version}`);
  } finally {
    await database.close();
  }
}
