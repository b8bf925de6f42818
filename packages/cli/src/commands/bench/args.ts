import { HelpRequest, UsageError } from '../../usage.js';

/** One command-line option; `alias` names are accepted too, `deprecated` ones with a warning on stderr. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  alias?: readonly string[];
  deprecated?: readonly string[];
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type OptionValue = string | boolean | string[];

export interface CommandLine {
  values: Record<string, OptionValue | undefined>;
  positionals: string[];
  /** With `trailing`: the first positional and everything after it, verbatim (the wrapped command). */
  trailing: string[];
}

interface Resolved {
  name: string;
  spec: OptionSpec;
  deprecated: boolean;
}

function lookupTable(specs: OptionSpecs): Map<string, Resolved> {
  const table = new Map<string, Resolved>();
  for (const [name, spec] of Object.entries(specs)) {
    table.set(`--${name}`, { name, spec, deprecated: false });
    if (spec.short) table.set(`-${spec.short}`, { name, spec, deprecated: false });
    for (const alias of spec.alias ?? []) table.set(`--${alias}`, { name, spec, deprecated: false });
    for (const old of spec.deprecated ?? []) table.set(`--${old}`, { name, spec, deprecated: true });
  }
  return table;
}

/** The options of `specs`, one a line, as `--help` lists them (deprecated spellings left out). */
export function optionList(specs: OptionSpecs): string {
  return Object.entries(specs)
    .map(([name, spec]) => {
      const names = [
        `--${name}`,
        ...(spec.short ? [`-${spec.short}`] : []),
        ...(spec.alias ?? []).map((a) => `--${a}`),
      ];
      const value = spec.type === 'string' ? ' <value>' : '';
      return `  ${names.join(', ')}${value}${spec.multiple ? ' (repeatable)' : ''}`;
    })
    .join('\n');
}

/**
 * Parses `args` against `specs`: `--name value`, `--name=value`, `-x`, repeatable options, `--` ending the
 * options. Unknown options and missing values are usage errors (exit code 2); `--help` or `-h` asks for `usage`
 * and the option list (`HelpRequest`).
 */
export function parseCommandLine(
  args: readonly string[],
  specs: OptionSpecs,
  options: { usage: string; trailing?: boolean; warn?: (message: string) => void },
): CommandLine {
  const table = lookupTable(specs);
  const values: CommandLine['values'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      const rest = args.slice(i + 1);
      return options.trailing
        ? { values, positionals, trailing: rest }
        : { values, positionals: [...positionals, ...rest], trailing: [] };
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (options.trailing) return { values, positionals, trailing: args.slice(i) };
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    const found = table.get(flag);
    if (!found && (flag === '--help' || flag === '-h')) {
      throw new HelpRequest(`Usage: ${options.usage}\n\nOptions:\n${optionList(specs)}\n`);
    }
    if (!found) throw new UsageError(`unknown option '${flag}'; run with --help for the options`);
    if (found.deprecated) (options.warn ?? warnOnStderr)(`warning: ${flag} is deprecated; use --${found.name}`);
    let value: string | boolean;
    if (found.spec.type === 'boolean') {
      if (equals > 0) throw new UsageError(`option '${flag}' takes no value`);
      value = true;
    } else if (equals > 0) {
      value = arg.slice(equals + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined) throw new UsageError(`option '${flag}' needs a value`);
      value = next;
      i++;
    }
    if (found.spec.multiple) {
      const list = (values[found.name] as string[] | undefined) ?? [];
      list.push(value as string);
      values[found.name] = list;
    } else {
      values[found.name] = value;
    }
  }
  return { values, positionals, trailing: [] };
}

const warnOnStderr = (message: string) => {
  process.stderr.write(`${message}\n`);
};

/** Typed readers over parsed values; numbers are validated here so a bad one is a usage error. */
export class Values {
  constructor(
    readonly line: CommandLine,
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /** The option, else the first of `envNames` that is set. */
  string(name: string, ...envNames: string[]): string | undefined {
    const value = this.line.values[name];
    if (typeof value === 'string') return value;
    for (const env of envNames) {
      const fromEnv = this.env[env];
      if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    }
    return undefined;
  }

  flag(name: string): boolean {
    return this.line.values[name] === true;
  }

  list(name: string): string[] {
    return (this.line.values[name] as string[] | undefined) ?? [];
  }

  number(name: string, range: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const raw = this.string(name);
    return raw === undefined ? undefined : parseNumber(`--${name}`, raw, range);
  }
}

export function parseNumber(label: string, raw: string, range: { min?: number; max?: number; integer?: boolean }) {
  const value = Number(raw);
  const bad =
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (range.integer && !Number.isInteger(value)) ||
    (range.min !== undefined && value < range.min) ||
    (range.max !== undefined && value > range.max);
  if (bad) {
    const kind = range.integer ? 'an integer' : 'a number';
    const bounds = [range.min !== undefined ? `>= ${range.min}` : '', range.max !== undefined ? `<= ${range.max}` : '']
      .filter(Boolean)
      .join(' and ');
    throw new UsageError(`${label} must be ${kind}${bounds ? ` ${bounds}` : ''}, got '${raw}'`);
  }
  return value;
}

/** Exactly `count` positionals named `names`, else a usage error. */
export function positionals(line: CommandLine, names: readonly string[], usage: string): string[] {
  if (line.positionals.length !== names.length) {
    throw new UsageError(`expected ${names.map((n) => `<${n}>`).join(' ') || 'no arguments'}; usage: ${usage}`);
  }
  return line.positionals;
}
