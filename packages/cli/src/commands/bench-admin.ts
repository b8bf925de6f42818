import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type BenchConfig,
  benchDatabaseUrl,
  type CredentialKind,
  createUserAccount,
  issueCredential,
  openBenchDatabase,
} from '@atrium/bench';
import { latestOutbox, loadConfig, type OutboxMessage } from '@atrium/core';
import { atriumConfigSchema } from '../config.js';
import { HelpRequest, UsageError, wantsHelp } from '../usage.js';

type BenchDb = Awaited<ReturnType<typeof openBenchDatabase>>['db'];

const USAGE = `usage:
  atrium bench admin user create --name NAME --email EMAIL [--slug SLUG] [--admin] [--config FILE] [--data-dir DIR]
  atrium bench admin token --email EMAIL [--jwt | --project PROJECT] [--name NAME] [--ttl SECONDS] [--config FILE] [--data-dir DIR]
  atrium bench admin outbox [--limit N] [--json] [--config FILE] [--data-dir DIR]`;

const COMMON = { config: { type: 'string' }, 'data-dir': { type: 'string' } } as const;

async function withBenchDatabase<T>(
  values: { config?: string | undefined; 'data-dir'?: string | undefined },
  work: (bench: BenchConfig, dataDir: string, db: BenchDb) => Promise<T>,
): Promise<T> {
  const overrides = values['data-dir'] ? { dataDir: values['data-dir'] } : {};
  const config = loadConfig(atriumConfigSchema, { file: values.config ?? process.env.ATRIUM_CONFIG, overrides });
  const dataDir = resolve(config.dataDir);
  const database = await openBenchDatabase(benchDatabaseUrl(config.bench, dataDir));
  try {
    return await work(config.bench, dataDir, database.db);
  } finally {
    await database.close();
  }
}

/** A message as `admin outbox` prints it: a header block, then the text (confirmation links, invitations). */
function printable(message: OutboxMessage): string {
  const state = message.last_error ? `${message.status} (${message.last_error})` : message.status;
  return [
    `--- message ${message.id} · ${new Date(message.created).toISOString()} · ${state}`,
    `To: ${message.recipient}`,
    `Subject: ${message.subject}`,
    '',
    message.body,
    '',
  ].join('\n');
}

/** `atrium bench admin …`: create users, mint credentials, read the mail outbox (no mail server needed). */
export async function benchAdmin(args: string[]): Promise<void> {
  const [area, ...rest] = args;
  if (area !== 'admin') throw new UsageError(USAGE);
  if (wantsHelp(rest) || rest[0] === 'help') throw new HelpRequest(`${USAGE}\n`);
  const [command, ...options] = rest;
  if (command === 'user' && options[0] === 'create') {
    const { values } = parseArgs({
      args: options.slice(1),
      options: {
        ...COMMON,
        name: { type: 'string' },
        email: { type: 'string' },
        slug: { type: 'string' },
        admin: { type: 'boolean' },
      },
      strict: true,
    });
    if (!values.name || !values.email) throw new UsageError(USAGE);
    const user = await withBenchDatabase(values, (_config, _dataDir, db) =>
      createUserAccount(db, {
        name: values.name as string,
        email: values.email as string,
        slug: values.slug,
        admin: values.admin,
      }),
    );
    process.stdout.write(
      `${JSON.stringify({ uuid: user.uuid, name: user.name, slug: user.slug, email: user.email, admin: user.admin === 1 })}\n`,
    );
    return;
  }
  if (command === 'token') {
    const { values } = parseArgs({
      args: options,
      options: {
        ...COMMON,
        email: { type: 'string' },
        jwt: { type: 'boolean' },
        project: { type: 'string' },
        name: { type: 'string' },
        ttl: { type: 'string' },
      },
      strict: true,
    });
    if (!values.email || (values.jwt && values.project)) throw new UsageError(USAGE);
    const ttlSeconds = values.ttl === undefined ? undefined : Number(values.ttl);
    if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) {
      throw new UsageError('--ttl must be a positive number of seconds');
    }
    const kind: CredentialKind = values.jwt ? 'jwt' : values.project ? 'project-key' : 'user-key';
    const secret = await withBenchDatabase(values, (config, dataDir, db) =>
      issueCredential(db, config, dataDir, {
        email: values.email as string,
        kind,
        project: values.project,
        name: values.name,
        ttlSeconds,
      }),
    );
    process.stdout.write(`${secret}\n`);
    return;
  }
  if (command === 'outbox') {
    const { values } = parseArgs({
      args: options,
      options: { ...COMMON, limit: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    });
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!(Number.isInteger(limit) && limit > 0 && limit <= 10_000)) {
      throw new UsageError('--limit must be a whole number from 1 to 10000');
    }
    const messages = await withBenchDatabase(values, (_config, _dataDir, db) => latestOutbox(db, limit));
    if (values.json) {
      process.stdout.write(`${JSON.stringify(messages)}\n`);
      return;
    }
    process.stdout.write(messages.length === 0 ? 'The outbox is empty.\n' : messages.map(printable).join('\n'));
    return;
  }
  throw new UsageError(USAGE);
}
