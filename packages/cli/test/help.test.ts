import { describe, expect, it } from 'vitest';
import { oneLine } from '../src/commands/bench/client.js';
import { cliEnv, runCli } from './run-cli.js';

describe('atrium … --help', () => {
  it.each([
    [['--help'], 'atrium serve'],
    [['serve', '--help'], 'usage: atrium serve'],
    [['inference', '--help'], 'atrium inference'],
    [['provenance', '--help'], 'make-archive'],
    [['provenance', 'inspect', '-h'], 'make-archive'],
    [['bench', '--help'], 'Usage: atrium bench <subcommand>'],
    [['bench', '-h'], 'run [options] [command…]'],
    [['bench', 'run', '--help'], '--threshold-measure <value> (repeatable)'],
    [['bench', 'run', '-h'], '--error-on-alert, --err'],
    [['bench', 'mock', '--help'], 'Usage: atrium bench mock'],
    [['bench', 'up', '--help'], '--api-port <value>'],
    [['bench', 'down', '--help'], 'Usage: atrium bench down|logs'],
    [['bench', 'logs', '-h'], 'Usage: atrium bench down|logs'],
    [['bench', 'archive', '--help'], 'Usage: atrium bench archive --project'],
    [['bench', 'perf', '--help'], 'Usage: atrium bench perf <project>'],
    [['bench', 'admin', '--help'], 'atrium bench admin user create'],
    [['bench', 'project', '--help'], 'Usage: atrium bench project <list|create|view|update|delete|allowed|key>'],
    [['bench', 'threshold', 'create', '--help'], 'Usage: atrium bench threshold create <project>'],
    [['bench', 'auth', 'accept', '-h'], 'Usage: atrium bench auth accept <invite>'],
  ])('atrium %j prints its usage on stdout and exits 0', async (args, usage) => {
    const finished = await runCli(args);
    expect(finished.stderr).toBe('');
    expect(finished.stdout).toContain(usage);
    expect(finished.code).toBe(0);
  });

  it('points an unknown option to --help (exit 2), and a wrapped command keeps its own --help', async () => {
    const unknown = await runCli(['bench', 'run', '--nope']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      "atrium: unknown option '--nope'; run with --help for the options\n",
    ]);
    // Outside CI: there, a run without --project is refused before the command runs.
    const wrapped = await runCli(
      ['bench', 'run', '--dry-run', '--quiet', '--exec', 'printf', '%s', '--help'],
      cliEnv({ CI: undefined, GITHUB_ACTIONS: undefined }),
    );
    expect(wrapped.code).toBe(0);
    expect(JSON.parse(wrapped.stdout).results).toEqual(['--help']);
  });
});

describe('server messages on one line', () => {
  it.each([
    [
      'Benchmark (x) not found\nBenchmark may be private and require authentication or it may not exist.',
      'Benchmark (x) not found. Benchmark may be private and require authentication or it may not exist.',
    ],
    ['Too many permutations:\n  558 (1 × 1 × 62 × 9)', 'Too many permutations: 558 (1 × 1 × 62 × 9)'],
    ['One sentence.\nAnother', 'One sentence. Another'],
    ['single line', 'single line'],
  ])('%j reads %j', (message, line) => {
    expect(oneLine(message)).toBe(line);
  });
});
