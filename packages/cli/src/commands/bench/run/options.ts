import { UsageError } from '../../../usage.js';
import { type OptionSpecs, parseNumber, type Values } from '../args.js';
import { BACKEND_OPTIONS } from '../backend.js';
import { type ReportThresholds, thresholdsFrom } from './thresholds.js';

const string = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const many = { type: 'string', multiple: true } as const;

export const RUN_USAGE = `atrium bench run [options] [command…]

Runs the command (or reads --file, or stdin), parses its output with --adapter (default: magic), submits the
report to --project on --host and prints its links. Branch: --branch, else the git branch, else main. Testbed:
--testbed, else the OS (Linux, macOS, Windows). Thresholds: --threshold-measure with --threshold-test and its
options (a project's first report gets the default thresholds). Bencher's \`bencher run\` options.`;

export const RUN_OPTIONS: OptionSpecs = {
  ...BACKEND_OPTIONS,
  project: string,
  branch: { type: 'string', deprecated: ['if-branch'] },
  hash: string,
  'start-point': { type: 'string', deprecated: ['branch-start-point', 'else-if-branch'] },
  'start-point-hash': { type: 'string', deprecated: ['branch-start-point-hash'] },
  'start-point-max-versions': string,
  'start-point-clone-thresholds': flag,
  'start-point-reset': { type: 'boolean', deprecated: ['branch-reset'] },
  'no-hash': flag,
  'else-branch': flag,
  'endif-branch': flag,
  testbed: string,
  adapter: string,
  average: string,
  fold: string,
  iter: string,
  backdate: string,
  'allow-failure': flag,
  'threshold-measure': many,
  'threshold-test': many,
  'threshold-min-sample-size': many,
  'threshold-max-sample-size': many,
  'threshold-window': many,
  'threshold-lower-boundary': many,
  'threshold-upper-boundary': many,
  'thresholds-reset': flag,
  'error-on-alert': { type: 'boolean', alias: ['err'] },
  format: string,
  quiet: { type: 'boolean', short: 'q' },
  'github-actions': string,
  'ci-only-thresholds': flag,
  'ci-only-on-alert': flag,
  'ci-no-metrics': flag,
  'ci-public-links': flag,
  'ci-id': string,
  'ci-number': string,
  'ci-on-the-fly': flag,
  'ci-i-am-vulnerable-to-pwn-requests': flag,
  'build-time': flag,
  file: many,
  'file-size': many,
  shell: string,
  flag: string,
  exec: flag,
  'dry-run': flag,
};

/** Deprecated options that no longer do anything. */
const IGNORED = ['no-hash', 'else-branch', 'endif-branch'];

export const ADAPTERS = [
  'magic',
  'json',
  'c_sharp_dot_net',
  'cpp_catch2',
  'cpp_google',
  'dart_benchmark_harness',
  'go_bench',
  'java_jmh',
  'js_benchmark',
  'js_time',
  'js_vitest',
  'python_asv',
  'python_pytest',
  'ruby_benchmark',
  'rust_bench',
  'rust_criterion',
  'rust_iai',
  'rust_gungraun',
  'rust_iai_callgrind',
  'rust_gungraun_stdout',
  'rust_gungraun_json',
  'shell_hyperfine',
] as const;

export type Format = 'human' | 'json' | 'html';

export interface StartPoint {
  branch: string | null;
  hash: string | null;
  max_versions: number;
  clone_thresholds: boolean;
  reset: boolean;
}

export interface CiOptions {
  githubToken: string | undefined;
  onlyThresholds: boolean;
  onlyOnAlert: boolean;
  noMetrics: boolean;
  publicLinks: boolean;
  id: string | undefined;
  number: number | undefined;
  onTheFly: boolean;
  allowForkPullRequests: boolean;
}

/** Everything `atrium bench run` was asked to do, validated; no I/O. */
export interface RunPlan {
  project: string | undefined;
  branch: string | undefined;
  hash: string | undefined;
  testbed: string | undefined;
  startPoint: StartPoint | undefined;
  thresholds: ReportThresholds | undefined;
  settings: { adapter: string; average?: string; fold?: string };
  iterations: number;
  allowFailure: boolean;
  /** argv to spawn (shell form is `[shell, flag, command]`), or undefined for files/stdin only. */
  command: string[] | undefined;
  /** The command as one string: the benchmark name of `--build-time`. */
  commandText: string | undefined;
  files: string[];
  fileSizes: string[];
  buildTime: boolean;
  backdate: Date | undefined;
  format: Format;
  quiet: boolean;
  errorOnAlert: boolean;
  dryRun: boolean;
  ci: CiOptions;
}

function oneOf<T extends string>(label: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${label} must be one of ${allowed.join(', ')}, got '${value}'`);
  }
  return value as T;
}

function backdateOf(raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const date = /^\d+(\.\d+)?$/.test(raw) ? new Date(Number(raw) * 1000) : new Date(raw);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--backdate must be epoch seconds or an ISO 8601 time, got '${raw}'`);
  return date;
}

function startPointOf(values: Values): StartPoint | undefined {
  const branch = values.string('start-point');
  const reset = values.flag('start-point-reset');
  const hash = values.string('start-point-hash');
  if (hash !== undefined && !branch) throw new UsageError('--start-point-hash requires --start-point');
  // An empty --start-point is ignored (CI files pass `--start-point "$BASE"` with BASE unset).
  if (!branch && !reset) return undefined;
  const maxVersions = values.number('start-point-max-versions', { integer: true, min: 1, max: 4294967295 });
  return {
    branch: branch || null,
    hash: hash ?? null,
    max_versions: maxVersions ?? 255,
    clone_thresholds: values.flag('start-point-clone-thresholds'),
    reset,
  };
}

function commandOf(values: Values, trailing: readonly string[], env: NodeJS.ProcessEnv) {
  const argv = trailing.length > 0 ? [...trailing] : env.BENCHER_CMD ? [env.BENCHER_CMD] : [];
  if (argv.length === 0) return { command: undefined, commandText: undefined };
  const text = argv.join(' ');
  if (argv.length === 1 && !values.flag('exec')) {
    return { command: [values.string('shell') ?? '/bin/sh', values.string('flag') ?? '-c', text], commandText: text };
  }
  return { command: argv, commandText: text };
}

export function planFrom(
  values: Values,
  trailing: readonly string[],
  env: NodeJS.ProcessEnv,
  warn: (m: string) => void,
): RunPlan {
  for (const name of IGNORED) if (values.flag(name)) warn(`warning: --${name} is deprecated and ignored`);
  const files = values.list('file');
  if (files.length > 255) throw new UsageError('--file may be given at most 255 times');
  const ciNumber = values.string('ci-number');
  const average = oneOf('--average', values.string('average'), ['mean', 'median']);
  const fold = oneOf('--fold', values.string('fold'), ['min', 'max', 'mean', 'median']);
  return {
    project: values.string('project', 'ATRIUM_BENCH_PROJECT', 'BENCHER_PROJECT'),
    branch: values.string('branch', 'ATRIUM_BENCH_BRANCH', 'BENCHER_BRANCH'),
    hash: values.string('hash'),
    testbed: values.string('testbed', 'ATRIUM_BENCH_TESTBED', 'BENCHER_TESTBED'),
    startPoint: startPointOf(values),
    thresholds: thresholdsFrom(values),
    settings: {
      adapter:
        oneOf('--adapter', values.string('adapter', 'ATRIUM_BENCH_ADAPTER', 'BENCHER_ADAPTER'), ADAPTERS) ?? 'magic',
      ...(average ? { average } : {}),
      ...(fold ? { fold } : {}),
    },
    iterations: values.number('iter', { integer: true, min: 1, max: 4096 }) ?? 1,
    allowFailure: values.flag('allow-failure'),
    ...commandOf(values, trailing, env),
    files,
    fileSizes: values.list('file-size'),
    buildTime: values.flag('build-time'),
    backdate: backdateOf(values.string('backdate')),
    format: oneOf('--format', values.string('format'), ['human', 'json', 'html'] as const) ?? 'human',
    quiet: values.flag('quiet'),
    errorOnAlert: values.flag('error-on-alert'),
    dryRun: values.flag('dry-run'),
    ci: {
      githubToken: values.string('github-actions'),
      onlyThresholds: values.flag('ci-only-thresholds'),
      onlyOnAlert: values.flag('ci-only-on-alert'),
      noMetrics: values.flag('ci-no-metrics'),
      publicLinks: values.flag('ci-public-links'),
      id: values.string('ci-id'),
      number: ciNumber === undefined ? undefined : parseNumber('--ci-number', ciNumber, { integer: true, min: 1 }),
      onTheFly: values.flag('ci-on-the-fly'),
      allowForkPullRequests: values.flag('ci-i-am-vulnerable-to-pwn-requests'),
    },
  };
}
