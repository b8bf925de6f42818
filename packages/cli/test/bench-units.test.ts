import { describe, expect, it } from 'vitest';
import { parseCommandLine, Values } from '../src/commands/bench/args.js';
import { backendFrom } from '../src/commands/bench/backend.js';
import { expandPath, queryString } from '../src/commands/bench/client.js';
import { field, fieldOptions, fieldsToObject } from '../src/commands/bench/fields.js';
import { checkRunName, headSha, isForkPullRequest } from '../src/commands/bench/github.js';
import { mockResults } from '../src/commands/bench/mock.js';
import { iteration } from '../src/commands/bench/run/harness.js';
import { commentId, htmlReport, MAX_COMMENT } from '../src/commands/bench/run/html.js';
import { newRun } from '../src/commands/bench/run/new-run.js';
import { planFrom, RUN_OPTIONS } from '../src/commands/bench/run/options.js';
import { humanReport, type Report, ReportLinks, type ReportMeasure } from '../src/commands/bench/run/report.js';
import { SHAPES } from '../src/commands/bench/shapes.js';
import { strictMismatch } from '../src/commands/bench/strict.js';
import { UsageError } from '../src/usage.js';

const plan = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const warnings: string[] = [];
  const line = parseCommandLine(args, RUN_OPTIONS, { usage: 'run', trailing: true, warn: (m) => warnings.push(m) });
  return { plan: planFrom(new Values(line, env), line.trailing, env, (m) => warnings.push(m)), warnings };
};

describe('command-line parsing', () => {
  it.each([
    [['--iter', '3', 'cargo bench'], { iterations: 3, command: ['/bin/sh', '-c', 'cargo bench'] }],
    [
      ['cargo', 'bench', '--', '--exact'],
      { command: ['cargo', 'bench', '--', '--exact'], commandText: 'cargo bench -- --exact' },
    ],
    [['--exec', 'cargo bench'], { command: ['cargo bench'] }],
    [['--shell', '/bin/bash', '--flag', '-lc', 'make'], { command: ['/bin/bash', '-lc', 'make'] }],
    [['--file', 'a.json', '--file', 'b.json'], { files: ['a.json', 'b.json'], command: undefined }],
    [
      ['--adapter', 'rust_criterion', '--fold', 'median', 'x'],
      { settings: { adapter: 'rust_criterion', fold: 'median' } },
    ],
    [['--start-point', '', 'x'], { startPoint: undefined }],
    [
      ['--start-point', 'main', '--start-point-hash', 'abc', '--start-point-clone-thresholds', 'x'],
      { startPoint: { branch: 'main', hash: 'abc', max_versions: 255, clone_thresholds: true, reset: false } },
    ],
    [
      ['--start-point-reset', 'x'],
      { startPoint: { branch: null, hash: null, max_versions: 255, clone_thresholds: false, reset: true } },
    ],
  ])('run %j', (args, expected) => {
    expect(plan(args).plan).toMatchObject(expected);
  });

  it('reads ATRIUM_BENCH_* first, then BENCHER_*', () => {
    const env = {
      BENCHER_PROJECT: 'b',
      ATRIUM_BENCH_BRANCH: 'a',
      BENCHER_BRANCH: 'b',
      BENCHER_ADAPTER: 'json',
      BENCHER_CMD: 'make',
    };
    expect(plan([], env).plan).toMatchObject({
      project: 'b',
      branch: 'a',
      settings: { adapter: 'json' },
      commandText: 'make',
    });
    expect(plan(['--project', 'p'], env).plan.project).toBe('p');
  });

  it('accepts deprecated options with a warning', () => {
    const { plan: p, warnings } = plan(['--branch-start-point', 'main', '--branch-reset', '--no-hash', '--err', 'x']);
    expect(p.startPoint).toMatchObject({ branch: 'main', reset: true });
    expect(p.errorOnAlert).toBe(true);
    expect(warnings).toEqual([
      'warning: --branch-start-point is deprecated; use --start-point',
      'warning: --branch-reset is deprecated; use --start-point-reset',
      'warning: --no-hash is deprecated and ignored',
    ]);
  });

  it('matches threshold options by position, with _ as unset', () => {
    const { plan: p } = plan([
      ...['--threshold-measure', 'latency', '--threshold-test', 't_test', '--threshold-max-sample-size', '64'],
      ...['--threshold-measure', 'throughput', '--threshold-test', 'percentage', '--threshold-max-sample-size', '_'],
      ...['--threshold-upper-boundary', '0.99', '--threshold-upper-boundary', '_', '--threshold-lower-boundary', '_'],
      ...['--threshold-lower-boundary', '0.2', '--thresholds-reset', 'x'],
    ]);
    expect(p.thresholds).toEqual({
      models: {
        latency: { test: 't_test', max_sample_size: 64, upper_boundary: 0.99 },
        throughput: { test: 'percentage', lower_boundary: 0.2 },
      },
      reset: true,
    });
  });

  it.each([
    [['--threshold-measure', 'latency', 'x'], /1 --threshold-measure but 0 --threshold-test/],
    [['--threshold-measure', 'l', '--threshold-test', 'bogus', 'x'], /--threshold-test must be one of/],
    [
      ['--threshold-measure', 'l', '--threshold-test', 't', '--threshold-window', '1', '--threshold-window', '2', 'x'],
      /more --threshold-window/,
    ],
    [['--iter', '0', 'x'], /--iter must be an integer >= 1/],
    [['--format', 'xml', 'x'], /--format must be one of human, json, html/],
    [['--start-point-hash', 'abc', 'x'], /requires --start-point/],
    [['--bogus', 'x'], /unknown option '--bogus'/],
    [['--project'], /needs a value/],
  ])('usage error for %j', (args, message) => {
    expect(() => plan(args)).toThrow(UsageError);
    expect(() => plan(args)).toThrow(message);
  });

  it('resolves the backend: host, credential precedence and retry settings', () => {
    const values = (args: string[], env: NodeJS.ProcessEnv) =>
      new Values(parseCommandLine(args, RUN_OPTIONS, { usage: 'run' }), env);
    expect(backendFrom(values([], {}))).toMatchObject({
      credential: undefined,
      attempts: 10,
      retryAfterMs: 3000,
      strict: false,
    });
    expect(backendFrom(values([], {})).host.href).toBe('http://localhost:6610/');
    expect(
      backendFrom(values([], { BENCHER_HOST: 'https://b.example', ATRIUM_BENCH_HOST: 'http://a.example' })).host.href,
    ).toBe('http://a.example/');
    expect(backendFrom(values([], { ATRIUM_BENCH_HOST: '127.0.0.1' })).host.href).toBe('http://127.0.0.1:6610/');
    expect(backendFrom(values(['--token', 'jwt'], { BENCHER_API_KEY: 'bencher_user_x' })).credential).toBe(
      'bencher_user_x',
    );
    expect(() => backendFrom(values(['--token', 'bencher_run_abc'], {}))).toThrow(/pass API keys .* with --key/);
    expect(() => backendFrom(values(['--token', 'atrium_user_abc'], {}))).toThrow(/pass API keys .* with --key/);
    expect(() => backendFrom(values(['--key', 'a', '--token', 'b'], {}))).toThrow(/mutually exclusive/);
    expect(() => backendFrom(values(['--host', 'ftp://x'], {}))).toThrow(/http\(s\)/);
    expect(backendFrom(values(['--attempts', '2', '--retry-after', '0.5', '--strict'], {}))).toMatchObject({
      attempts: 2,
      retryAfterMs: 500,
      strict: true,
    });
  });

  it('maps resource options to request fields', () => {
    const fields = [
      field('name'),
      field('url', 'elided'),
      field('per-page', 'integer'),
      field('admin', 'boolean'),
      field('archive', 'archive'),
    ];
    const parse = (args: string[]) =>
      fieldsToObject(fields, new Values(parseCommandLine(args, fieldOptions(fields), { usage: 'fields' })));
    expect(parse(['--name', 'N', '--url', '_', '--per-page', '5', '--admin', 'false', '--unarchive'])).toEqual({
      name: 'N',
      url: null,
      per_page: 5,
      admin: false,
      archived: false,
    });
    expect(() => parse(['--admin', 'yes'])).toThrow(/true or false/);
    expect(() => parse(['--archive', '--unarchive'])).toThrow(/conflict/);
    expect(expandPath('/v0/projects/{project}/branches/{branch}', { project: 'a b', branch: 'x/y' })).toBe(
      '/v0/projects/a%20b/branches/x%2Fy',
    );
    expect(queryString({ a: 'x y', b: undefined, c: ['u', 'v'], d: [], e: false })).toBe('?a=x+y&c=u%2Cv&e=false');
  });
});

describe('--strict response shapes', () => {
  const project = {
    uuid: 'u',
    organization: 'o',
    name: 'n',
    slug: 's',
    url: null,
    visibility: 'public',
    created: 't',
    modified: 't',
    claimed: null,
  };
  it.each([
    ['JsonProject', project, undefined],
    ['JsonProject', { ...project, colour: 'red' }, '$.colour is not a field of JsonProject'],
    ['JsonProject', { ...project, slug: undefined }, undefined],
    ['[JsonProject]', [project, { ...project, extra: 1 }], '$[1].extra is not a field of JsonProject'],
    ['JsonProject', (({ slug: _s, ...rest }) => rest)(project), '$.slug is missing'],
    ['JsonApiVersion', [], '$ is not an object'],
  ])('%s %#', (ref, value, problem) => {
    expect(strictMismatch(SHAPES, ref, value)).toBe(problem);
  });
});

describe('mock results', () => {
  it('is deterministic with a seed and stays within [10^pow·c, 10^pow·(c+1))', () => {
    const options = { seed: 6, count: 5, measures: ['latency', 'screams'], pow: 1 };
    const first = mockResults(options);
    expect(mockResults(options)).toEqual(first);
    expect(Object.keys(first)).toEqual([
      'bencher::mock_0',
      'bencher::mock_1',
      'bencher::mock_2',
      'bencher::mock_3',
      'bencher::mock_4',
    ]);
    Object.values(first).forEach((measures, c) => {
      for (const metric of Object.values(measures)) {
        expect(metric.value).toBeGreaterThanOrEqual(10 * c);
        expect(metric.value).toBeLessThan(10 * (c + 1));
        expect(metric.lower_value).toBeCloseTo(metric.value * 0.9);
        expect(metric.upper_value).toBeCloseTo(metric.value * 1.1);
      }
    });
    expect(mockResults({ ...options, pow: 10 })['bencher::mock_1']?.latency?.value).toBeGreaterThanOrEqual(1e10);
  });
});

const KEY = 'bencher.dev/v0/';
const dim = (name: string, uuid = `${name}-uuid`) => ({ uuid, name, slug: name.toLowerCase() });

function report(overrides: Partial<Report> = {}): Report {
  const measure = { ...dim('Latency'), units: 'nanoseconds (ns)' };
  return {
    uuid: 'r-uuid',
    project: { ...dim('Lib'), organization: 'org-uuid', visibility: 'public', claimed: '2026-01-01T00:00:00Z' },
    branch: { ...dim('main'), head: { uuid: 'head-uuid' } },
    testbed: dim('Linux'),
    adapter: 'json',
    start_time: '2026-01-31T00:00:00Z',
    end_time: '2026-01-31T00:00:01Z',
    results: [
      [
        {
          iteration: 0,
          benchmark: dim('fib'),
          measures: [
            {
              measure,
              metric: { uuid: 'm', value: 150, lower_value: null, upper_value: null },
              threshold: { uuid: 't', model: { test: 't_test' } },
              boundary: { baseline: 100, lower_limit: null, upper_limit: 120 },
            },
          ],
        },
      ],
    ],
    alerts: [
      {
        uuid: 'a',
        iteration: 0,
        limit: 'upper',
        status: 'active',
        benchmark: dim('fib'),
        metric: { value: 150 },
        boundary: { baseline: 100, lower_limit: null, upper_limit: 120 },
        threshold: { measure },
      },
    ],
    ...overrides,
  };
}

describe('report rendering', () => {
  it('prints report, result and alert links for a public project', () => {
    const text = humanReport(new ReportLinks('http://console:3000/', report()));
    const perf =
      'http://console:3000/perf/lib?branches=main-uuid&heads=head-uuid&testbeds=Linux-uuid&benchmarks=fib-uuid&measures=Latency-uuid&start_time=1767225600000&end_time=1769817601000&report=r-uuid';
    expect(text).toBe(
      [
        'View report: http://console:3000/perf/lib/reports/r-uuid',
        '',
        'View results:',
        `- fib (Latency): ${perf}`,
        '',
        'View alerts:',
        `- fib (Latency): ${perf}&upper_boundary=true`,
        '',
      ].join('\n'),
    );
  });

  it('links private projects into the console, warns on no benchmarks and offers the claim link', () => {
    const unclaimed = report({
      project: { ...dim('Lib'), organization: 'org-uuid', visibility: 'private', claimed: null },
      results: [],
      alerts: [],
    });
    expect(humanReport(new ReportLinks('http://c', unclaimed))).toBe(
      'View report: http://c/console/projects/lib/reports/r-uuid\n\nWARNING: No benchmarks found!\n\nClaim this project: http://c/auth/signup?claim=org-uuid\n',
    );
  });

  it('warns when no threshold guards a measure, with the console form and the command that add one', () => {
    const one = report({ alerts: [] });
    const row = one.results?.[0]?.[0] as NonNullable<Report['results']>[number][number];
    const unguarded = { ...(row.measures[0] as ReportMeasure), threshold: null, boundary: null };
    const text = humanReport(new ReportLinks('http://c/', { ...one, results: [[{ ...row, measures: [unguarded] }]] }));
    expect(text.split('\n').slice(-4)).toEqual([
      'WARNING: No Threshold found for branch main, testbed Linux: these measures will never raise an alert.',
      '- Latency: add one at http://c/console/projects/lib/thresholds/add?branch=main&testbed=linux&measure=latency',
      '  or: atrium bench threshold create lib --branch main --testbed linux --measure latency --test t_test',
      '',
    ]);
    expect(humanReport(new ReportLinks('http://c/', one))).not.toContain('WARNING');
  });

  it('groups results by iteration when there are several', () => {
    const one = report();
    const row = one.results?.[0]?.[0] as NonNullable<Report['results']>[number][number];
    const text = humanReport(
      new ReportLinks('http://c', { ...one, results: [[row], [{ ...row, iteration: 1 }]], alerts: [] }),
    );
    expect(text.split('\n').filter((line) => /^Iteration \d:$|^- fib/.test(line))).toEqual([
      'Iteration 0:',
      expect.stringMatching(/^- fib \(Latency\): /),
      'Iteration 1:',
      expect.stringMatching(/^- fib \(Latency\): /),
    ]);
  });

  it('renders the HTML comment with alerts, deltas and the hidden tag; truncates past 65,535 characters', () => {
    const links = new ReportLinks('http://c', report());
    const tag = commentId(links.report, undefined, { buildTime: true, fileSize: false });
    expect(tag).toBe('bencher.dev/projects/lib/id/main/linux/json-build_time');
    const html = htmlReport(links, { tag });
    expect(html).toContain('<h3>🚨 1 Alert</h3>');
    expect(html).toContain('<b>150 (50.00%)</b>');
    expect(html.endsWith(`<div id="${tag}"></div>`)).toBe(true);
    expect(htmlReport(links, { tag, noMetrics: true })).not.toContain('Click to view all benchmark results');

    const many = report();
    const row = (many.results as NonNullable<Report['results']>)[0]?.[0];
    many.results = [
      Array.from({ length: 400 }, (_, i) => ({ ...(row as NonNullable<typeof row>), benchmark: dim(`bench-${i}`) })),
    ];
    const big = htmlReport(new ReportLinks('http://c', many), { tag: 'x' });
    expect(big.length).toBeLessThanOrEqual(MAX_COMMENT);
    expect(big).toContain('too large to show here (400 results, 1 alerts)');
    expect(big.endsWith('<div id="x"></div>')).toBe(true);
  });

  it('builds JsonNewRun with git/OS defaults and --backdate', () => {
    const context = {
      [`${KEY}branch/ref/name`]: 'feature',
      [`${KEY}branch/hash`]: 'f'.repeat(40),
      [`${KEY}testbed/os`]: 'Linux',
    };
    const run = (args: string[]) =>
      newRun(plan(args).plan, {
        results: ['{}'],
        start: new Date('2026-01-01T00:00:00Z'),
        end: new Date('2026-01-01T00:00:02Z'),
        context,
        idempotencyKey: 'k',
      });
    expect(run(['x'])).toMatchObject({
      branch: 'feature',
      hash: 'f'.repeat(40),
      testbed: 'Linux',
      end_time: '2026-01-01T00:00:02.000Z',
    });
    expect(run(['x'])).not.toHaveProperty('project');
    expect(run(['--branch', 'b', '--hash', 'h', '--testbed', 't', '--project', 'p', 'x'])).toMatchObject({
      project: 'p',
      branch: 'b',
      hash: 'h',
      testbed: 't',
    });
    expect(run(['--backdate', '1700000000', 'x'])).toMatchObject({
      start_time: '2023-11-14T22:13:20.000Z',
      end_time: '2023-11-14T22:13:22.000Z',
    });
  });
});

describe('GitHub helpers', () => {
  it('detects fork pull requests and picks the head SHA', () => {
    const pr = (head: string) => ({
      pull_request: { head: { sha: 'h', repo: { full_name: head } }, base: { repo: { full_name: 'o/r' } } },
    });
    expect(isForkPullRequest(pr('o/r'))).toBe(false);
    expect(isForkPullRequest(pr('fork/r'))).toBe(true);
    expect(isForkPullRequest({})).toBe(false);
    expect(headSha(pr('o/r'), { GITHUB_SHA: 'g' })).toBe('h');
    expect(headSha({ workflow_run: { head_sha: 'w' } }, { GITHUB_SHA: 'g' })).toBe('w');
    expect(headSha({}, { GITHUB_SHA: 'g' })).toBe('g');
  });

  it('caps check run names at 255 bytes without splitting a character', () => {
    expect(checkRunName('lib')).toBe('Bencher Report (lib)');
    const long = checkRunName('é'.repeat(200));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long).not.toContain('\uFFFD');
  });
});

describe('benchmark harness', () => {
  it('captures stdout, fails on a non-zero exit, and skips the iteration under --allow-failure', async () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const ok = plan(['--exec', process.execPath, '-e', 'console.log("out"); console.error("err")']).plan;
    expect(await iteration(ok, undefined, warn)).toEqual(['out\n']);
    const failing = plan(['--exec', process.execPath, '-e', 'process.exit(4)']).plan;
    await expect(iteration(failing, undefined, warn)).rejects.toThrow('the benchmark command failed with exit code 4');
    expect(await iteration({ ...failing, allowFailure: true }, undefined, warn)).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('(skipped, --allow-failure)')]);
  });
});
