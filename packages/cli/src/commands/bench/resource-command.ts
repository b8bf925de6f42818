import { HelpRequest, UsageError } from '../../usage.js';
import { parseCommandLine, Values } from './args.js';
import { BACKEND_OPTIONS, backendFrom } from './backend.js';
import { BenchClient, type Method } from './client.js';
import { asQuery, type Field, field, fieldOptions, fieldsToObject, PAGINATION, required } from './fields.js';
import { type Io, printJson } from './io.js';

/** One API call behind a subcommand: positionals fill the path parameters in order. */
export interface Action {
  method: Method;
  path: string;
  /** Positional argument names = the path parameters, in order (or body fields, see `bodyArgs`). */
  args: readonly string[];
  /** Positionals sent as body fields instead of path parameters (`auth accept <INVITE>`). */
  bodyArgs?: readonly string[];
  body?: readonly Field[];
  query?: readonly Field[];
  /** Nested request objects (`start_point`, `settings`) sent only when one of their options is given. */
  nested?: Readonly<Record<string, readonly Field[]>>;
  /** Pagination options on top of `query`. */
  list?: boolean;
  /** Needs a user credential. */
  auth?: boolean;
  /** Path parameters read from required options instead of positionals: param → option. */
  optionParams?: Readonly<Record<string, string>>;
  /** The leading `project` positional may come from `--project` (or its environment variables) instead. */
  projectOption?: boolean;
  /** Last rewrite of the body (e.g. `--remove-model` → `{"test": null}`). */
  finish?: (body: Record<string, unknown>) => Record<string, unknown>;
}

/** A subcommand: one action, alternatives chosen by the number of positionals, or a nested group. */
export type Command = Action | readonly Action[] | Group;
export interface Group {
  readonly [name: string]: Command;
}

const ALIASES: Record<string, readonly string[]> = {
  ls: ['list'],
  add: ['create'],
  get: ['view'],
  edit: ['update'],
  rm: ['delete', 'remove', 'revoke'],
};

const PROJECT_ENV = ['ATRIUM_BENCH_PROJECT', 'BENCHER_PROJECT'];

const isAction = (command: Command): command is Action => typeof (command as Action).method === 'string';

function usageOf(name: string, action: Action): string {
  return `${name} ${action.args.map((a) => `<${a}>`).join(' ')}`.trim();
}

/** `atrium bench <group> <subcommand> …`: resolves the subcommand in `group` and performs it. */
export async function runGroup(prefix: string, group: Group, args: readonly string[], io: Io): Promise<void> {
  const [word, ...rest] = args;
  if (word === '--help' || word === '-h' || word === 'help') {
    const names = Object.keys(group);
    throw new HelpRequest(`Usage: ${prefix} <${names.join('|')}> …\n\nEach answers --help with its own usage.\n`);
  }
  const name = word === undefined ? undefined : [word, ...(ALIASES[word] ?? [])].find((n) => n in group);
  const command = name === undefined ? undefined : group[name];
  if (command === undefined) {
    throw new UsageError(`${prefix}: expected one of ${Object.keys(group).join(', ')}${word ? `, got '${word}'` : ''}`);
  }
  const label = `${prefix} ${name}`;
  if (isAction(command)) return perform(label, [command], rest, io);
  if (Array.isArray(command)) return perform(label, command as readonly Action[], rest, io);
  return runGroup(label, command as Group, rest, io);
}

async function perform(label: string, alternatives: readonly Action[], args: readonly string[], io: Io) {
  const allFields = alternatives.flatMap((a) => [
    ...(a.body ?? []),
    ...(a.query ?? []),
    ...Object.values(a.nested ?? {}).flat(),
    ...(a.list ? PAGINATION : []),
    ...Object.values(a.optionParams ?? {}).map((option) => required(option)),
    ...(a.projectOption ? [field('project')] : []),
  ]);
  const usage = alternatives.map((a) => usageOf(label, a)).join(' | ');
  const line = parseCommandLine(args, { ...BACKEND_OPTIONS, ...fieldOptions(allFields) }, { usage, warn: io.warn });
  const values = new Values(line, io.env);
  const positional = [...line.positionals];
  const action = alternatives.find((a) => {
    if (a.projectOption && positional.length === a.args.length - 1) {
      const project = values.string('project', ...PROJECT_ENV);
      if (project !== undefined) positional.unshift(project);
    }
    return a.args.length === positional.length;
  });
  if (!action) throw new UsageError(`wrong number of arguments; usage: ${usage}`);
  const params = Object.fromEntries(action.args.map((name, i) => [name, positional[i] as string]));
  for (const [param, option] of Object.entries(action.optionParams ?? {})) {
    params[param] = fieldsToObject([required(option)], values)[option] as string;
  }
  const query = fieldsToObject([...(action.query ?? []), ...(action.list ? PAGINATION : [])], values);
  let body: Record<string, unknown> | undefined;
  if (action.body || action.nested || action.bodyArgs) {
    body = fieldsToObject(action.body ?? [], values);
    for (const arg of action.bodyArgs ?? []) body[arg] = params[arg];
    for (const [key, fields] of Object.entries(action.nested ?? {})) {
      const nested = fieldsToObject(fields, values);
      if (Object.keys(nested).length > 0) body[key] = nested;
    }
    if (action.finish) body = action.finish(body);
  }
  const client = new BenchClient(backendFrom(values), io.warn);
  const answer = await client.send({
    method: action.method,
    path: action.path,
    params,
    query: asQuery(query),
    body,
    auth: action.auth,
  });
  if (answer !== undefined) printJson(io, answer);
}
