import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atriumBench, json, type LiveBench, startLiveBench } from './bench-support.js';

/** A command printing one BMF result: plain node (exec form), no CLI start-up. */
const bmfCommand = (latency: number) => [
  '--exec',
  process.execPath,
  '-e',
  `console.log(JSON.stringify({"tests::fib":{latency:{value:${latency}}}}))`,
];
const bmf = (latency: number) => JSON.stringify({ 'tests::fib': { latency: { value: latency } } });
const steady = (i: number) => 100 + ((i * 7) % 5) - 2;

describe('atrium bench against a live bench server', () => {
  let bench: LiveBench;
  let env: Record<string, string>;
  const target = ['--project', 'the-computer', '--branch', 'master', '--testbed', 'base'];
  const tTest = ['--threshold-measure', 'latency', '--threshold-test', 't_test', '--threshold-upper-boundary', '0.99'];

  beforeAll(async () => {
    bench = await startLiveBench();
    env = { ATRIUM_BENCH_HOST: bench.base, ATRIUM_BENCH_KEY: bench.muriel };
  });
  afterAll(() => bench?.close());

  const cli = (args: string[], extra: { env?: Record<string, string | undefined>; input?: string } = {}) =>
    atriumBench(args, { ...extra, env: { ...env, ...extra.env } });
  const run = (args: string[], extra: { env?: Record<string, string | undefined>; input?: string } = {}) =>
    cli(['run', ...target, '--format', 'json', '--quiet', ...args], extra);

  it('runs the seed sequence: resources, runs until an alert fires, archive, lists and views', {
    timeout: 120_000,
  }, async () => {
    const org = json(await cli(['organization', 'create', '--name', 'Muriel Bagge']));
    expect(org.slug).toBe('muriel-bagge');
    const project = json(
      await cli(['project', 'create', 'muriel-bagge', '--name', 'The Computer', '--slug', 'the-computer']),
    );
    expect(project).toMatchObject({ name: 'The Computer', slug: 'the-computer', visibility: 'public' });
    expect(json(await cli(['project', 'ls'], { env: { ATRIUM_BENCH_KEY: undefined } }))).toHaveLength(1);
    expect(json(await cli(['project', 'list', 'muriel-bagge']))).toHaveLength(1);
    expect(json(await cli(['project', 'view', 'the-computer'])).uuid).toBe(project.uuid);
    expect(json(await cli(['branch', 'create', 'the-computer', '--name', 'master'])).slug).toBe('master');
    expect(json(await cli(['testbed', 'add', 'the-computer', '--name', 'Base', '--slug', 'base'])).slug).toBe('base');
    const screams = ['--name', 'Screams', '--slug', 'screams', '--units', 'Decibels (dB)'];
    expect(json(await cli(['measure', 'create', 'the-computer', ...screams])).units).toBe('Decibels (dB)');

    // History through every input mode: command (exec form), --file (one iteration per file), stdin.
    const first = json(await run([...tTest, ...bmfCommand(steady(0))]));
    expect(first.results[0][0].measures[0].threshold.model).toMatchObject({ test: 't_test', upper_boundary: 0.99 });
    for (let i = 1; i < 4; i++) expect(json(await run(bmfCommand(steady(i)))).alerts).toEqual([]);
    const files = [4, 5].map((i) => {
      const file = join(bench.dir, `result-${i}.json`);
      writeFileSync(file, bmf(steady(i)));
      return file;
    });
    const fromFiles = json(await run(['--file', files[0] as string, '--file', files[1] as string]));
    expect(fromFiles.results).toHaveLength(2);
    expect(fromFiles.results[1][0].measures[0].metric.value).toBe(steady(5));
    const piped = json(await run([], { input: bmf(steady(6)) }));
    expect(piped.results[0][0].measures[0].metric.value).toBe(steady(6));
    expect(piped.alerts).toEqual([]);

    // --dry-run prints the request and sends nothing.
    const before = json(await cli(['report', 'list', 'the-computer', '--per-page', '255']));
    const dry = await cli(['run', ...target, '--dry-run', ...bmfCommand(1e6)]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout.slice(dry.stdout.lastIndexOf('\n{') + 1))).toMatchObject({
      project: 'the-computer',
      branch: 'master',
      testbed: 'base',
    });
    expect(json(await cli(['report', 'list', 'the-computer', '--per-page', '255']))).toHaveLength(before.length);

    // A regression: the alert is printed and --error-on-alert exits 1.
    const regression = await run(['--error-on-alert', ...bmfCommand(1000)]);
    expect(regression.code).toBe(1);
    expect(regression.stderr).toContain('alerts detected (1)');
    const report = JSON.parse(regression.stdout);
    expect(report.alerts).toHaveLength(1);
    expect(report.alerts[0]).toMatchObject({ limit: 'upper', status: 'active' });

    // Human output: report, result and alert links on the console URL.
    const human = await cli(['run', ...target, '--quiet', ...bmfCommand(100_000)]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^View report: http:\/\/localhost:3000\/perf\/the-computer\/reports\/[0-9a-f-]{36}$/m);
    expect(human.stdout).toMatch(/^- tests::fib \(Latency\): http:\/\/localhost:3000\/perf\/the-computer\?branches=/m);
    expect(human.stdout).toContain('View alerts:');
    expect(human.stdout).toContain('upper_boundary=true');

    const alerts = json(await cli(['alert', 'ls', 'the-computer']));
    expect(alerts).toHaveLength(2);
    expect(json(await cli(['alert', 'view', 'the-computer', alerts[0].uuid])).uuid).toBe(alerts[0].uuid);
    const dismissed = json(await cli(['alert', 'update', 'the-computer', alerts[0].uuid, '--status', 'dismissed']));
    expect(dismissed.status).toBe('dismissed');

    // Read-only views, in parallel.
    const [thresholds, reports, viewed, benchmarks, measures, testbed, branch] = (
      await Promise.all([
        cli(['threshold', 'list', 'the-computer']),
        cli(['report', 'ls', 'the-computer', '--per-page', '255']),
        cli(['report', 'view', 'the-computer', report.uuid]),
        cli(['benchmark', 'list', 'the-computer']),
        cli(['measure', 'list', 'the-computer']),
        cli(['testbed', 'view', 'the-computer', 'base']),
        cli(['branch', 'view', 'the-computer', 'master']),
      ])
    ).map(json);
    expect(thresholds).toHaveLength(1);
    expect(reports).toHaveLength(8);
    expect(viewed.uuid).toBe(report.uuid);
    expect(benchmarks.map((b: { name: string }) => b.name)).toEqual(['tests::fib']);
    expect(measures.map((m: { slug: string }) => m.slug).sort()).toEqual(['latency', 'screams']);
    expect(testbed.name).toBe('Base');
    const metric = viewed.results[0][0].measures[0].metric;
    const [threshold, oneMetric] = (
      await Promise.all([
        cli(['threshold', 'view', 'the-computer', thresholds[0].uuid]),
        cli(['metric', 'view', 'the-computer', metric.uuid]),
      ])
    ).map(json);
    expect(threshold.measure.slug).toBe('latency');
    expect(oneMetric.metric.uuid).toBe(metric.uuid);

    const perfArgs = ['perf', 'the-computer', '--branches', branch.uuid, '--testbeds', viewed.testbed.uuid];
    const perfIds = ['--benchmarks', benchmarks[0].uuid, '--measures', viewed.results[0][0].measures[0].measure.uuid];
    const table = await cli([...perfArgs, ...perfIds, '--table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^\| Benchmark +\| Measure/);
    expect(table.stdout.split('\n').filter((line) => line.includes('tests::fib'))).toHaveLength(9);

    // Archive hides the branch's alerts; unarchive brings them back.
    const archived = await cli(['archive', '--project', 'the-computer', '--branch', 'master']);
    expect(archived.stdout).toBe('Successfully archived the branch (master).\n');
    expect(json(await cli(['alert', 'ls', 'the-computer']))).toHaveLength(0);
    expect(json(await cli(['branch', 'ls', 'the-computer', '--archived']))).toHaveLength(1);
    const again = await cli(['archive', '--project', 'the-computer', '--branch', 'master']);
    expect(again.stdout).toBe('The branch (master) is already archived.\n');
    const unarchived = await cli(['unarchive', '--project', 'the-computer', '--branch', 'master']);
    expect(unarchived.stdout).toBe('Successfully unarchived the branch (master).\n');
    expect(json(await cli(['alert', 'ls', 'the-computer']))).toHaveLength(2);
  });

  it('manages thresholds, start points, reports and API keys with positional arguments', {
    timeout: 60_000,
  }, async () => {
    json(await cli(['org', 'create', '--name', 'Keys Org', '--slug', 'keys-org']));
    json(await cli(['project', 'create', 'keys-org', '--name', 'Keyed', '--slug', 'keyed']));
    const patched = json(await cli(['project', 'update', 'keyed', '--url', 'https://example.com']));
    expect(patched.url).toMatch(/^https:\/\/example\.com\/?$/);
    expect(json(await cli(['project', 'edit', 'keyed', '--url', '_'])).url).toBeNull();

    const base = ['run', '--project', 'keyed', '--branch', 'main', '--testbed', 'ci', '--quiet', '--format', 'json'];
    const first = json(await cli([...base, ...bmfCommand(10)]));
    const created = json(
      await cli([
        'threshold',
        'create',
        '--project',
        'keyed',
        '--branch',
        'main',
        '--testbed',
        'ci',
        '--measure',
        'latency',
        '--test',
        'percentage',
        '--upper-boundary',
        '0.5',
      ]),
    );
    expect(created.model).toMatchObject({ test: 'percentage', upper_boundary: 0.5 });
    const updated = json(
      await cli([
        'threshold',
        'update',
        'keyed',
        created.uuid,
        '--test',
        'static',
        '--upper-boundary',
        '100',
        '--lower-boundary',
        '_',
      ]),
    );
    expect(updated.model).toMatchObject({ test: 'static', upper_boundary: 100, lower_boundary: null });
    expect(json(await cli(['threshold', 'update', 'keyed', created.uuid, '--remove-model'])).model).toBeNull();

    const feature = json(
      await cli([
        'branch',
        'create',
        'keyed',
        '--name',
        'feature',
        '--start-point-branch',
        'main',
        '--start-point-clone-thresholds',
      ]),
    );
    expect(feature.head.start_point.branch).toBe(first.branch.uuid);
    const viewed = json(await cli(['branch', 'view', 'keyed', 'feature', '--head', feature.head.uuid]));
    expect(viewed.head.uuid).toBe(feature.head.uuid);

    const deleted = await cli(['report', 'delete', 'keyed', first.uuid]);
    expect(deleted).toMatchObject({ code: 0, stdout: '' });
    expect(json(await cli(['report', 'ls', 'keyed']))).toHaveLength(0);
    expect((await cli(['threshold', 'rm', 'keyed', created.uuid])).code).toBe(0);

    const folded = json(await cli([...base, '--iter', '3', '--fold', 'max', ...bmfCommand(7)]));
    expect(folded.results).toHaveLength(1);
    expect(folded.results[0][0].measures[0].metric.value).toBe(7);

    const key = json(await cli(['project', 'key', 'create', 'keyed', '--name', 'ci']));
    expect(key.key).toMatch(/^atrium_run_/);
    const withoutProject = await cli(['run', '--quiet', ...bmfCommand(1)], { env: { ATRIUM_BENCH_KEY: key.key } });
    expect(withoutProject.code).toBe(2);
    expect(withoutProject.stderr).toContain('needs --project');
    const keyed = json(await cli([...base, ...bmfCommand(11)], { env: { ATRIUM_BENCH_KEY: key.key } }));
    expect(keyed.user).toBeNull();
    expect(json(await cli(['project', 'key', 'ls', 'keyed']))).toHaveLength(1);
    expect(json(await cli(['user', 'key', 'list', 'muriel-bagge']))).toEqual(expect.any(Array));
    expect(json(await cli(['server', 'spec'])).openapi).toMatch(/^3\./);
  });

  it('records --build-time and --file-size as their own measures', async () => {
    const file = join(bench.dir, 'artifact.bin');
    writeFileSync(file, Buffer.alloc(1234));
    const report = json(
      await run(['--build-time', '--file-size', file, '--exec', process.execPath, '-e', 'setTimeout(() => {}, 50)']),
    );
    const byBenchmark = Object.fromEntries(
      report.results[0].map(
        (r: { benchmark: { name: string }; measures: { measure: { slug: string }; metric: { value: number } }[] }) => [
          r.benchmark.name,
          Object.fromEntries(r.measures.map((m) => [m.measure.slug, m.metric.value])),
        ],
      ),
    );
    expect(byBenchmark['artifact.bin']).toEqual({ 'file-size': 1234 });
    const [command] = Object.keys(byBenchmark).filter((name) => name !== 'artifact.bin');
    expect(command).toContain('setTimeout');
    expect(byBenchmark[command as string]['build-time']).toBeGreaterThan(0);
  });

  it('fails clearly: wrapped command failure, missing project in CI, unknown resource, no credential, usage', async () => {
    const failing = await cli(['run', ...target, '--exec', process.execPath, '-e', 'process.exit(3)']);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('exit code 3');

    const ci = await cli(['run', '--quiet', ...bmfCommand(1)], { env: { CI: 'true' } });
    expect(ci.code).toBe(2);
    expect(ci.stderr).toContain('--ci-on-the-fly');

    const missing = await cli(['project', 'view', 'no-such-project']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^atrium: GET \/v0\/projects\/no-such-project: 404 /);

    const anonymous = await cli(['organization', 'list'], { env: { ATRIUM_BENCH_KEY: undefined } });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('needs an API credential');

    const mock = await cli(['mock', '--count', '1', '--fail']);
    expect(mock.code).toBe(1);
    expect(Object.keys(JSON.parse(mock.stdout))).toEqual(['bencher::mock_0']);

    const usage = await cli(['branch', 'view', 'the-computer']);
    expect(usage.code).toBe(2);
    expect((await cli(['run', '--threshold-test', 't_test', ...bmfCommand(1)])).code).toBe(2);
  });

  it('creates a project on the fly for an anonymous run with --ci-on-the-fly, and accepts BENCHER_* variables', async () => {
    const anonymous = await atriumBench(['run', '--ci-on-the-fly', '--format', 'json', '--quiet', ...bmfCommand(5)], {
      env: { BENCHER_HOST: bench.base, CI: 'true' },
    });
    const report = json(anonymous);
    expect(report.project.slug).toMatch(/^main-[0-9a-f]{7}-[0-9a-z]{13}$/);
    expect(report.branch.name).toBe('main');

    const bencherEnv = { env: { BENCHER_HOST: bench.base, BENCHER_API_KEY: bench.muriel } };
    const strict = await atriumBench(['project', 'view', report.project.slug, '--strict'], bencherEnv);
    expect(strict.code, strict.stderr).toBe(0);
    const html = await atriumBench(
      ['run', '--project', 'made-here', '--quiet', '--strict', '--format', 'html', ...bmfCommand(6)],
      bencherEnv,
    );
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/^<h2><a href="http:\/\/localhost:3000\/perf\/made-here\/reports\/[0-9a-f-]{36}">/);
    expect(html.stdout).toContain('<td>Branch</td><td>main</td>');
  });
});
