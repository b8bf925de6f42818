import type { AddressInfo } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeGracefully, createLogger, loadConfig, onShutdownSignal } from '@atrium/core';
import {
  API_PREFIX,
  BUNDLED_ARCHIVE,
  buildProvenanceApp,
  inspectSource,
  makeArchive,
  SHAPES,
  type Shape,
} from '@atrium/provenance';
import { atriumConfigSchema } from '../config.js';
import { HelpRequest, UsageError, wantsHelp } from '../usage.js';
import { configFile } from './serve.js';

const USAGE =
  'expected serve [<archive-or-url>...] [--config FILE] [--port N] [--host H] [--data-dir DIR] [--log-level L], inspect <archive-or-url>, or make-archive (--nodes N | --shapes a,b [--count N]) [--out FILE] [--seed S]';

/** `name=location` or a bare location (named after the archive file, or `db<i>` for a URL). */
function sourceOf(arg: string, index: number) {
  const named = /^([A-Za-z0-9_-]{1,64})=(.+)$/.exec(arg);
  if (named?.[1] && named[2]) return { name: named[1], location: resolveLocation(named[2]) };
  const stem = basename(arg)
    .replace(/\.(aiida|zip)$/, '')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 64);
  return { name: /^postgres/.test(arg) ? `db${index + 1}` : stem || `db${index + 1}`, location: resolveLocation(arg) };
}

const resolveLocation = (location: string) => (/^postgres(ql)?:\/\//.test(location) ? location : resolve(location));

/**
 * The `[provenance]` section, `dataDir` and `log` of `atrium.toml` (`--config`, `ATRIUM_CONFIG` or
 * `./atrium.toml`) and `ATRIUM_*` variables, as `atrium serve` reads them; flags and positional sources win.
 */
function serveConfig(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'log-level': { type: 'string' },
    },
  });
  const provenance = {
    ...(values.port ? { port: Number(values.port) } : {}),
    ...(values.host ? { bind: values.host } : {}),
    ...(positionals.length > 0 ? { sources: positionals.map(sourceOf) } : {}),
  };
  const config = loadConfig(atriumConfigSchema, {
    file: configFile(values.config),
    overrides: {
      provenance,
      ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
      ...(values['log-level'] ? { log: { level: values['log-level'] } } : {}),
    },
  });
  const [only, ...more] = config.provenance.sources;
  if (positionals.length === 0 && more.length === 0 && only?.location === BUNDLED_ARCHIVE) {
    throw new UsageError(
      'provenance serve needs an archive or postgres:// URL, or [provenance] sources in atrium.toml',
    );
  }
  return config;
}

async function serveSources(args: string[]): Promise<void> {
  const { provenance: config, dataDir, log } = serveConfig(args);
  const logger = createLogger(log);
  const app = await buildProvenanceApp(config, { logger, dataDir: resolve(dataDir), accessLog: log.access });
  await app.listen({ host: config.bind, port: config.port });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://${config.bind}:${port}`;
  const lines = config.sources.map(
    (s, i) => `  ${base}/${s.name}${API_PREFIX}/  ${s.location}${i === 0 ? ' (default)' : ''}`,
  );
  process.stdout.write(`AiiDA REST API v4 at ${base}${API_PREFIX}/\n${lines.join('\n')}\n`);
  onShutdownSignal(() => closeGracefully(app, config.shutdownTimeoutMs));
}

async function inspect(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' } },
  });
  if (positionals.length !== 1 || !positionals[0])
    throw new UsageError('usage: atrium provenance inspect <archive-or-url>');
  const cache = join(resolve(values['data-dir'] ?? './data'), 'provenance-cache');
  const report = await inspectSource(resolveLocation(positionals[0]), cache);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

/** `--shapes a,b --count N` (each shape N times) or `--nodes N` (the campaign graph of the benchmarks). */
function archiveSize(values: { nodes?: string; shapes?: string; count?: string }) {
  if (values.shapes !== undefined) {
    const shapes = values.shapes.split(',').filter(Boolean);
    const unknown = shapes.filter((s) => !(SHAPES as readonly string[]).includes(s));
    if (shapes.length === 0 || unknown.length > 0) {
      throw new UsageError(`make-archive --shapes takes a comma-separated subset of: ${SHAPES.join(', ')}`);
    }
    const count = Number(values.count ?? 1);
    if (!Number.isInteger(count) || count < 1) throw new UsageError('make-archive --count N needs a positive integer');
    return { shapes: shapes as Shape[], count };
  }
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1) {
    throw new UsageError('make-archive needs --nodes N (a positive integer) or --shapes a,b[,…] [--count N]');
  }
  return { nodes };
}

async function make(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      nodes: { type: 'string' },
      shapes: { type: 'string' },
      count: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const size = archiveSize(values);
  const out = resolve(
    values.out ?? ('nodes' in size ? `synthetic-${size.nodes}.aiida` : `shapes-${size.shapes.join('-')}.aiida`),
  );
  const made = await makeArchive(out, size, values.seed ? Number(values.seed) : undefined);
  process.stdout.write(
    `wrote ${made.path}: ${made.nodes} nodes, ${made.links} links, ${made.objects} repository objects\n`,
  );
}

/** `atrium provenance <subcommand>`: serve archives/databases, inspect them, generate synthetic archives. */
export async function provenance(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (wantsHelp(args) || subcommand === 'help') throw new HelpRequest(`${USAGE}\n`);
  switch (subcommand) {
    case 'serve':
      return serveSources(rest);
    case 'inspect':
      return inspect(rest);
    case 'make-archive':
      return make(rest);
    default:
      throw new UsageError(`unknown provenance subcommand '${subcommand ?? ''}'; ${USAGE}`);
  }
}
