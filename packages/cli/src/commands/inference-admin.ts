import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HttpError, loadConfig } from '@atrium/core';
import {
  inferenceDatabaseUrl,
  type KeySettings,
  OperatorCommands,
  openInferenceDatabase,
  parseEndDate,
  servedModelConfigs,
  toCsv,
  USAGE_GROUPS,
  type UsageGroup,
} from '@atrium/inference';
import { atriumConfigSchema } from '../config.js';
import { UsageError } from '../usage.js';
import { inferenceUsage } from './inference-help.js';
import { humanTable } from './inference-tables.js';

const OPTIONS = {
  json: { type: 'boolean' },
  config: { type: 'string' },
  'data-dir': { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  admin: { type: 'boolean' },
  organisation: { type: 'string' },
  project: { type: 'string' },
  role: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  cluster: { type: 'string' },
  'node-hours': { type: 'string' },
  'credits-per-node-hour': { type: 'string' },
  from: { type: 'string' },
  request: { type: 'string' },
  operator: { type: 'string' },
  alias: { type: 'string' },
  budget: { type: 'string' },
  period: { type: 'string' },
  models: { type: 'string' },
  kind: { type: 'string' },
  credits: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  concurrent: { type: 'string' },
  title: { type: 'string' },
  body: { type: 'string' },
  key: { type: 'string' },
  model: { type: 'string' },
  to: { type: 'string' },
  by: { type: 'string' },
  limit: { type: 'string' },
  expires: { type: 'string' },
  'new-alias': { type: 'string' },
  csv: { type: 'boolean' },
} as const;

const DAY_MS = 86_400_000;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function number(values: Values, name: keyof Values): number {
  const value = Number(required(values, name));
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number`);
  return value;
}

function date(values: Values, name: keyof Values): number {
  const value = Date.parse(required(values, name));
  if (Number.isNaN(value)) throw new UsageError(`--${name} must be a date such as 2026-01-31 or 2026-01-31T12:00:00Z`);
  return value;
}

/** An end date: a day alone is inclusive (the whole day), as the web UI shows it; `none` where clearing is allowed. */
function endDate(values: Values, name: keyof Values): number {
  const value = parseEndDate(required(values, name));
  if (Number.isNaN(value))
    throw new UsageError(
      `--${name} must be a date such as 2027-12-31 (ends when that day ends, UTC) or 2027-12-31T12:00:00Z`,
    );
  return value;
}

/** A key setting: absent (unchanged), `none` (cleared: null), or its value. */
function setting<T>(values: Values, name: keyof Values, read: () => T): T | null | undefined {
  if (values[name] === undefined) return undefined;
  return values[name] === 'none' ? null : read();
}

/** The key settings given on the command line (create-key, edit-key). */
function keySettings(values: Values): KeySettings {
  return {
    budgetTokens: setting(values, 'budget', () => number(values, 'budget')),
    resetPeriod: setting(values, 'period', () => required(values, 'period')),
    allowedModels:
      values.models === undefined
        ? undefined
        : values.models
            .split(',')
            .map((m) => m.trim())
            .filter((m) => m !== '' && m !== 'all'),
    expires: setting(values, 'expires', () => endDate(values, 'expires')),
    requestsPerMinute: setting(values, 'rpm', () => number(values, 'rpm')),
    tokensPerMinute: setting(values, 'tpm', () => number(values, 'tpm')),
  };
}

const keyRef = (values: Values) => ({ id: values.key, project: values.project, alias: values.alias });

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

/** The new account's password: from stdin, `--password` or `ATRIUM_INFERENCE_PASSWORD`; undefined: a random one. */
async function newPassword(values: Values): Promise<string | undefined> {
  if (!values['password-stdin']) return values.password ?? (process.env.ATRIUM_INFERENCE_PASSWORD || undefined);
  if (values.password !== undefined) throw new UsageError('--password and --password-stdin exclude each other');
  const password = (await readStdin()).replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin read an empty password');
  return password;
}

async function run(
  ops: OperatorCommands,
  command: string,
  values: Values,
  models: ReadonlySet<string>,
): Promise<unknown> {
  switch (command) {
    case 'create-account':
      return ops.createAccount(
        required(values, 'email'),
        required(values, 'name'),
        await newPassword(values),
        values.admin === true,
      );
    case 'create-project':
      return ops.createProject(required(values, 'name'), values.organisation);
    case 'add-member':
      return ops.addMember(required(values, 'project'), required(values, 'email'), required(values, 'role'));
    case 'add-grant':
      return ops.addGrant(required(values, 'project'), date(values, 'start'), endDate(values, 'end'));
    case 'set-allocation':
      return ops.setAllocation(required(values, 'project'), required(values, 'cluster'), number(values, 'node-hours'));
    case 'set-rate':
      return ops.setRate(
        required(values, 'cluster'),
        number(values, 'credits-per-node-hour'),
        values.from ? date(values, 'from') : Date.now(),
      );
    case 'convert':
      return ops.convertNodeHours(
        required(values, 'project'),
        required(values, 'cluster'),
        number(values, 'node-hours'),
      );
    case 'top-up':
      return ops.topUp(required(values, 'project'), number(values, 'credits'));
    case 'set-limits': {
      const limit = (name: 'rpm' | 'tpm' | 'concurrent') => (values[name] === undefined ? null : number(values, name));
      return ops.setLimits(required(values, 'project'), {
        requestsPerMinute: limit('rpm'),
        tokensPerMinute: limit('tpm'),
        concurrentRequests: limit('concurrent'),
      });
    }
    case 'requests':
      return ops.openRequests();
    case 'outbox':
      return ops.outbox(values.limit === undefined ? 50 : number(values, 'limit'));
    case 'announce':
      return ops.announce({
        kind: required(values, 'kind'),
        title: required(values, 'title'),
        body: values.body ?? '',
        starts: date(values, 'start'),
        ends: date(values, 'end'),
      });
    case 'approve':
    case 'reject':
      return ops.decide(number(values, 'request'), required(values, 'operator'), command === 'approve');
    case 'list-projects':
      return ops.listProjects();
    case 'list-resources':
      return ops.listResources();
    case 'list-keys':
      return ops.listKeys(values.project);
    case 'revoke-key':
      return ops.revokeKey(keyRef(values));
    case 'edit-key':
      return ops.editKey(keyRef(values), { ...keySettings(values), alias: values['new-alias'] }, models);
    case 'rotate-key':
      return ops.rotateKey(keyRef(values));
    case 'usage': {
      const by = (values.by ?? 'key') as UsageGroup;
      if (!USAGE_GROUPS.includes(by)) throw new UsageError(`--by must be one of ${USAGE_GROUPS.join(', ')}`);
      const to = values.to === undefined ? Date.now() : date(values, 'to');
      const from = values.from === undefined ? to - 30 * DAY_MS : date(values, 'from');
      if (values.alias !== undefined && values.project === undefined)
        throw new UsageError('--alias names a key of the project given with --project');
      return ops.usage({ project: values.project, alias: values.alias, model: values.model }, { from, to }, by);
    }
    default:
      return ops.createKey(
        required(values, 'project'),
        { ...keySettings(values), alias: required(values, 'alias') },
        models,
      );
  }
}

function human(command: string, result: unknown): string {
  if (command === 'create-key') {
    const key = result as { alias: string; project: string; secret: string };
    return `created key '${key.alias}' in project ${key.project}\nsecret (shown once, store it now): ${key.secret}\n`;
  }
  if (command === 'rotate-key') {
    const key = result as { alias: string; secret: string };
    return `rotated key '${key.alias}': the old secret is refused from now on\nnew secret (shown once, store it now): ${key.secret}\n`;
  }
  if (command === 'create-account' && (result as { password?: string }).password) {
    const account = result as { email: string; password: string };
    return `created account ${account.email}\npassword (shown once): ${account.password}\n`;
  }
  return humanTable(command, result) ?? `${JSON.stringify(result, null, 2)}\n`;
}

/** `usage --csv`: the rows as CSV, for a spreadsheet. */
function csv(command: string, result: unknown): string {
  if (command !== 'usage') throw new UsageError('--csv is for the usage command');
  const rows = result as Array<Record<'group' | 'requests' | 'prompt_tokens' | 'completion_tokens' | 'credits', never>>;
  return toCsv(
    ['group', 'requests', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'credits'],
    rows.map((r) => [
      r.group,
      r.requests,
      r.prompt_tokens,
      r.completion_tokens,
      Number(r.prompt_tokens) + Number(r.completion_tokens),
      r.credits,
    ]),
  );
}

/** `atrium inference <operator command>`: tenancy administration straight on the database. */
export async function inferenceAdmin(command: string, args: string[]): Promise<void> {
  let values: Values;
  try {
    values = parseArgs({ args, options: OPTIONS, strict: true }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${inferenceUsage(command).trimEnd()}`);
  }
  const overrides = values['data-dir'] ? { dataDir: values['data-dir'] } : {};
  const config = loadConfig(atriumConfigSchema, { file: values.config ?? process.env.ATRIUM_CONFIG, overrides });
  const database = await openInferenceDatabase(inferenceDatabaseUrl(config.inference, resolve(config.dataDir)));
  try {
    // What the gateway serves: the configured models, else the embedded default.
    const models = new Set(servedModelConfigs(config.inference).map((m) => m.id));
    const channels = config.inference.announce.channels.map((c) => c.name);
    const ops = new OperatorCommands(database.db, config.inference.smtp ? 'smtp' : 'outbox', channels);
    const result = await run(ops, command, values, models);
    process.stdout.write(
      values.json ? `${JSON.stringify(result)}\n` : values.csv ? csv(command, result) : human(command, result),
    );
  } catch (error) {
    if (error instanceof HttpError) throw new Error(error.message);
    if (error instanceof UsageError) throw new UsageError(`${error.message}\n${inferenceUsage(command).trimEnd()}`);
    throw error;
  } finally {
    await database.close();
  }
}
