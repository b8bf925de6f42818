import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atriumBench, bmfCommand, json, liveBenchSuite } from './bench-support.js';

describe('atrium bench commands against a live bench server', () => {
  const suite = liveBenchSuite();
  const { cli, run, target } = suite;

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
    // The first report took the project's default thresholds (latency, throughput) to main × ci.
    expect(first.results[0][0].measures[0].threshold.model).toMatchObject({ test: 't_test', upper_boundary: 0.95 });
    json(await cli(['measure', 'create', 'keyed', '--name', 'Memory', '--units', 'bytes (B)']));
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
        'memory',
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
    expect(json(await cli(['project', 'key', 'view', 'keyed', key.uuid])).name).toBe('ci');
    expect(json(await cli(['project', 'key', 'update', 'keyed', key.uuid, '--name', 'ci-2'])).name).toBe('ci-2');
    expect((await cli(['project', 'key', 'revoke', 'keyed', key.uuid])).code).toBe(0);
    const revoked = await cli([...base, ...bmfCommand(12)], { env: { ATRIUM_BENCH_KEY: key.key } });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/^atrium: POST \/v0\/run: 401 /m);
    expect(json(await cli(['user', 'key', 'list', 'muriel-bagge']))).toEqual(expect.any(Array));
    expect(json(await cli(['server', 'spec'])).openapi).toMatch(/^3\./);
  });

  it('lists, views, updates and deletes every dimension, organisation and project', { timeout: 60_000 }, async () => {
    json(await cli(['org', 'create', '--name', 'Crud Org', '--slug', 'crud-org']));
    json(await cli(['project', 'create', 'crud-org', '--name', 'Crud', '--slug', 'crud']));
    const created = (
      await Promise.all([
        cli(['branch', 'create', 'crud', '--name', 'b1']),
        cli(['testbed', 'create', 'crud', '--name', 't1']),
        cli(['benchmark', 'create', 'crud', '--name', 'x1']),
        cli(['measure', 'create', 'crud', '--name', 'm1', '--units', 'u']),
      ])
    ).map(json);
    const kinds = ['branch', 'testbed', 'benchmark', 'measure'];
    const updated = (
      await Promise.all(
        kinds.map((kind, i) =>
          cli([kind, 'update', 'crud', created[i].uuid, '--name', `${kind}-renamed`, '--archive']),
        ),
      )
    ).map(json);
    updated.forEach((row, i) => {
      expect(row).toMatchObject({ name: `${kinds[i]}-renamed`, archived: expect.any(String) });
    });
    const [orgs, org, renamed, archivedBranches] = (
      await Promise.all([
        cli(['organization', 'list']),
        cli(['organization', 'view', 'crud-org']),
        cli(['organization', 'update', 'crud-org', '--name', 'Crud Org 2']),
        cli(['branch', 'list', 'crud', '--archived']),
      ])
    ).map(json);
    expect(orgs.map((o: { slug: string }) => o.slug)).toContain('crud-org');
    expect(org.slug).toBe('crud-org');
    expect(renamed.name).toBe('Crud Org 2');
    expect(archivedBranches).toHaveLength(1);
    const deleted = await Promise.all(kinds.map((kind, i) => cli([kind, 'delete', 'crud', created[i].uuid])));
    expect(deleted.map((d) => [d.code, d.stdout])).toEqual(kinds.map(() => [0, '']));

    const report = json(
      await cli([
        'report',
        'create',
        'crud',
        '--branch',
        'main',
        '--testbed',
        'ci',
        '--start-time',
        '2026-01-01T00:00:00Z',
        '--end-time',
        '2026-01-01T00:00:01Z',
        '--results',
        JSON.stringify({ a: { latency: { value: 1 } } }),
        '--adapter',
        'json',
      ]),
    );
    expect(report).toMatchObject({ adapter: 'json', branch: { name: 'main' }, testbed: { name: 'ci' } });
    expect((await cli(['project', 'delete', 'crud'])).code).toBe(0);
    expect((await cli(['project', 'view', 'crud'])).code).toBe(1);
    expect((await cli(['organization', 'delete', 'crud-org'])).code).toBe(0);
  });

  it('records --build-time and --file-size as their own measures', async () => {
    const file = join(suite.bench.dir, 'artifact.bin');
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
      env: { BENCHER_HOST: suite.bench.base, CI: 'true' },
    });
    const report = json(anonymous);
    // Named after the checkout's folder (`main` here, whatever a clone is called elsewhere).
    const folder = basename(process.cwd())
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-');
    expect(report.project.slug).toMatch(new RegExp(`^${folder}-[0-9a-f]{7}-[0-9a-z]{13}$`));
    expect(report.branch.name).toBe('main');

    const bencherEnv = { env: { BENCHER_HOST: suite.bench.base, BENCHER_API_KEY: suite.bench.muriel } };
    const strict = await atriumBench(['project', 'view', report.project.slug, '--strict'], bencherEnv);
    expect(strict.code, strict.stderr).toBe(0);
    const html = await atriumBench(
      ['run', '--project', 'made-here', '--quiet', '--strict', '--format', 'html', ...bmfCommand(6)],
      bencherEnv,
    );
    expect(html.code, html.stderr).toBe(0);
    expect(html.stdout.startsWith(`<h2><a href="${suite.bench.base}/perf/made-here/reports/`)).toBe(true);
    expect(html.stdout).toContain('<td>Branch</td><td>main</td>');
  });
});
