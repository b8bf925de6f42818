import type { AddressInfo } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeGracefully, createLogger, logSchema, onShutdownSignal } from '@atrium/core';
import { API_PREFIX, buildProvenanceApp, inspectSource, makeArchive, provenanceConfigSchema } from '@atrium/provenance';
import { UsageError } from '../usage.js';

const USAGE =
  'expected serve <archive-or-url>... [--port N] [--host H] [--data-dir DIR] [--log-level L], inspect <archive-or-url>, or make-archive --nodes N [--out FILE] [--seed S]';

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

async function serveSources(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'log-level': { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError('provenance serve needs at least one archive or postgres:// URL');
  const config = provenanceConfigSchema.parse({
    ...(values.port ? { port: Number(values.port) } : {}),
    ...(values.host ? { bind: values.host } : {}),
    sources: positionals.map(sourceOf),
  });
  const dataDir = resolve(values['data-dir'] ?? './data');
  const { level } = logSchema.parse({ level: values['log-level'] ?? 'info' });
  const logger = createLogger({ level });
  const accessLog = ['info', 'debug', 'trace'].includes(level);
  const app = await buildProvenanceApp(config, { logger, dataDir, accessLog });
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

async function make(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { nodes: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } },
  });
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1) throw new UsageError('make-archive needs --nodes N (a positive integer)');
  const out = resolve(values.out ?? `synthetic-${nodes}.aiida`);
  const made = await makeArchive(out, nodes, values.seed ? Number(values.seed) : undefined);
  process.stdout.write(
    `wrote ${made.path}: ${made.nodes} nodes, ${made.links} links, ${made.objects} repository objects\n`,
  );
}

/** `atrium provenance <subcommand>`: serve archives/databases, inspect them, generate synthetic archives. */
export async function provenance(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
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
