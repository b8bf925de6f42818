import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bmfCommand, json, liveBenchSuite } from './bench-support.js';

const bmf = (latency: number) => JSON.stringify({ 'tests::fib': { latency: { value: latency } } });
const steady = (i: number) => 100 + ((i * 7) % 5) - 2;

describe('atrium bench against a live bench server', () => {
  const suite = liveBenchSuite();
  const { cli, run, target } = suite;
  const tTest = ['--threshold-measure', 'latency', '--threshold-test', 't_test', '--threshold-upper-boundary', '0.99'];

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
      const file = join(suite.bench.dir, `result-${i}.json`);
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
    const consoleUrl = suite.bench.base;
    expect(human.stdout).toMatch(
      new RegExp(`^View report: ${consoleUrl}/perf/the-computer/reports/[0-9a-f-]{36}$`, 'm'),
    );
    expect(human.stdout).toContain(`\n- tests::fib (Latency): ${consoleUrl}/perf/the-computer?branches=`);
    expect(human.stdout).toContain('View alerts:');
    expect(human.stdout).toContain('upper_boundary=true');

    const alerts = json(await cli(['alert', 'ls', 'the-computer']));
    expect(alerts).toHaveLength(2);
    expect(json(await cli(['alert', 'view', 'the-computer', alerts[0].uuid])).uuid).toBe(alerts[0].uuid);
    const dismissed = json(await cli(['alert', 'update', 'the-computer', alerts[0].uuid, '--status', 'dismissed']));
    expect(dismissed.status).toBe('dismissed');

    // Read-only views, in parallel.
    const [allThresholds, reports, viewed, benchmarks, measures, testbed, branch] = (
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
    // The project's two default thresholds are on main × localhost; the run made one on master × base.
    expect(allThresholds).toHaveLength(3);
    const thresholds = allThresholds.filter((t: { branch: { name: string } }) => t.branch.name === 'master');
    expect(thresholds).toHaveLength(1);
    expect(reports).toHaveLength(8);
    expect(viewed.uuid).toBe(report.uuid);
    expect(benchmarks.map((b: { name: string }) => b.name)).toEqual(['tests::fib']);
    expect(measures.map((m: { slug: string }) => m.slug).sort()).toEqual(['latency', 'screams', 'throughput']);
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
});
