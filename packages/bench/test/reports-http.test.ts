import { readFileSync } from 'node:fs';
import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { insertDimension } from '../src/storage/dimensions.js';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

const fixture = (path: string) => readFileSync(`/work/shared/fixtures/bench-adapters/${path}`, 'utf8');

describeEachDialect('bench reports over HTTP', ({ url, dialect }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  /** On testbed ci, away from the thresholds a new project has on main × localhost. */
  const post = (body: Record<string, unknown>) =>
    bench.call('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: { branch: 'main', testbed: 'ci', start_time: at(0), end_time: at(1), ...body },
    });
  /** Keeps a project's first report from taking the default thresholds to main × ci (see project-defaults-http). */
  const unguarded = { thresholds: { reset: true } };

  it('ingests raw tool output with an adapter and answers the full report', async () => {
    const response = await post({
      ...unguarded,
      results: [fixture('rust/bench/many.txt')],
      settings: { adapter: 'rust_bench' },
    });
    expect(response.status).toBe(201);
    const report = (await response.json()) as Json;
    expect(report.adapter).toBe('rust_bench');
    expect(report.branch).toMatchObject({ name: 'main', slug: 'main', head: { version: { number: 0, hash: null } } });
    expect(report.testbed).toMatchObject({ name: 'ci', slug: 'ci', spec: null });
    expect(report.user).toMatchObject({ name: 'Muriel Bagge' });
    const names = report.results[0].map((result: { benchmark: { name: string } }) => result.benchmark.name);
    expect(names).toEqual([...names].sort());
    expect(names).toHaveLength(6);
    const one = report.results[0].find((result: Json) => result.benchmark.name === 'tests::one_digit');
    expect(one.measures[0]).toMatchObject({
      measure: { name: 'Latency', slug: 'latency', units: 'nanoseconds (ns)' },
      metric: { value: 1000, lower_value: 0, upper_value: 2000 },
      threshold: null,
      boundary: null,
    });
    expect(report.counts).toEqual({ results: [{ benchmarks: 6, measures: 1 }], alerts: { total: 0, active: 0 } });

    const magic = await post({ results: [fixture('java/jmh/six.json')] });
    expect(((await magic.json()) as Json).results[0][0].measures[0].measure.slug).toBe('throughput');
  });

  it('stores nothing when any iteration fails to parse or the body is invalid', async () => {
    const bad = await post({ results: [bmf({ a: { latency: 1 } }), 'not a benchmark'], settings: { adapter: 'json' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('adapter');
    for (const body of [
      { results: 'x' },
      { results: [], settings: { adapter: 'cobol' } },
      { results: [], start_time: 'yesterday' },
      { results: [], branch: 'bad..ref name' },
      { results: [], hash: 'xyz' },
      { results: [], thresholds: { models: { latency: { test: 't_test', upper_boundary: 2 } } } },
      { results: [], extra: true },
    ]) {
      expect((await post(body)).status).toBe(400);
    }
    expect(await bench.json('GET', '/v0/projects/the-computer/reports')).toEqual([]);
    const branches = (await bench.json('GET', '/v0/projects/the-computer/branches')) as Json[];
    expect(branches.map((branch) => branch.slug)).toEqual(['main']);
    const testbeds = (await bench.json('GET', '/v0/projects/the-computer/testbeds')) as Json[];
    expect(testbeds.map((testbed) => testbed.slug)).toEqual(['localhost']);
    expect(await bench.json('GET', '/v0/projects/the-computer/benchmarks')).toEqual([]);
  });

  it('keeps iterations apart or folds them', async () => {
    const iterations = [bmf({ b: { latency: 1 } }), bmf({ b: { latency: 5 } }), bmf({ b: { latency: 3 } })];
    const kept = (await (await post({ results: iterations })).json()) as Json;
    expect(kept.results).toHaveLength(3);
    expect(kept.results[2][0]).toMatchObject({ iteration: 2, measures: [{ metric: { value: 3 } }] });
    for (const [fold, value] of [
      ['min', 1],
      ['max', 5],
      ['mean', 3],
      ['median', 3],
    ] as const) {
      const folded = (await (await post({ results: iterations, settings: { fold } })).json()) as Json;
      expect(folded.results).toHaveLength(1);
      expect(folded.results[0][0].measures[0].metric.value).toBe(value);
    }
  });

  it('lists reports collapsed or expanded, filtered, and deletes one renumbering later versions', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await post({
        start_time: at(i * 10),
        end_time: at(i * 10 + 1),
        hash: `${i}`.repeat(40),
        results: [bmf({ b: { latency: i + 1 } })],
      });
      uuids.push(((await response.json()) as { uuid: string }).uuid);
    }
    const listed = await bench.call('GET', '/v0/projects/the-computer/reports?per_page=2');
    expect(listed.headers.get('x-total-count')).toBe('3');
    const collapsed = (await listed.json()) as Json[];
    expect(collapsed.map((report) => report.uuid)).toEqual([uuids[2], uuids[1]]);
    expect(collapsed[0].results).toBeUndefined();
    expect(collapsed[0].counts.results).toEqual([{ benchmarks: 1, measures: 1 }]);
    const expanded = await bench.json('GET', '/v0/projects/the-computer/reports?expand=true&direction=asc');
    expect(expanded.map((report: Json) => report.results[0][0].measures[0].metric.value)).toEqual([1, 2, 3]);
    const windowed = await bench.json(
      'GET',
      `/v0/projects/the-computer/reports?start_time=${Date.parse(at(5))}&end_time=${Date.parse(at(15))}`,
    );
    expect(windowed.map((report: Json) => report.uuid)).toEqual([uuids[1]]);
    expect(await bench.json('GET', '/v0/projects/the-computer/reports?branch=nope')).toEqual([]);

    const deleted = await bench.call('DELETE', `/v0/projects/the-computer/reports/${uuids[1]}`, {
      token: bench.muriel,
    });
    expect(deleted.status).toBe(204);
    const last = await bench.json('GET', `/v0/projects/the-computer/reports/${uuids[2]}`);
    expect(last.branch.head.version).toEqual({ number: 1, hash: '2'.repeat(40) });
    expect((await bench.call('GET', `/v0/projects/the-computer/reports/${uuids[1]}`)).status).toBe(404);
    expect((await bench.call('DELETE', `/v0/projects/the-computer/reports/${uuids[2]}`)).status).toBe(401);
    const next = await post({
      start_time: at(40),
      end_time: at(41),
      hash: '3'.repeat(40),
      results: [bmf({ b: { latency: 4 } })],
    });
    const following = (await next.json()) as Json;
    expect(following.branch.head.version).toEqual({ number: 2, hash: '3'.repeat(40) });
  });

  it('takes concurrent reports that create the same branch, testbed and benchmarks, each its own version', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post({
          branch: 'race',
          testbed: 'racer',
          start_time: at(i),
          end_time: at(i),
          results: [bmf({ shared: { latency: i }, [`own-${i}`]: { latency: i } })],
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(await bench.json('GET', '/v0/projects/the-computer/branches?name=race')).toHaveLength(1);
    expect(await bench.json('GET', '/v0/projects/the-computer/benchmarks?name=shared')).toHaveLength(1);
    const reports = (await bench.json('GET', '/v0/projects/the-computer/reports?branch=race&per_page=20')) as Json[];
    const numbers = reports.map((report) => report.branch.head.version.number).sort((a, b) => a - b);
    expect(numbers).toEqual([...Array(12).keys()]);
  });

  it('numbers versions without gaps while a report is deleted under concurrent reports', async () => {
    const race = (i: number) =>
      post({ branch: 'race', start_time: at(i), end_time: at(i), results: [bmf({ b: { latency: i } })] });
    const first: Json[] = [];
    for (let i = 0; i < 4; i++) first.push(await (await race(i)).json());
    const [deleted, ...posted] = await Promise.all([
      bench.call('DELETE', `/v0/projects/the-computer/reports/${first[1]?.uuid}`, { token: bench.muriel }),
      ...Array.from({ length: 8 }, (_, i) => race(10 + i)),
    ]);
    expect([deleted?.status, ...posted.map((response) => response.status)]).toEqual([204, ...Array(8).fill(201)]);
    const reports = (await bench.json('GET', '/v0/projects/the-computer/reports?branch=race&per_page=20')) as Json[];
    const numbers = reports.map((report) => report.branch.head.version.number).sort((a, b) => a - b);
    expect(numbers).toEqual([...Array(11).keys()]);
  });

  it.skipIf(dialect === 'sqlite')('runs a report again when PostgreSQL aborts it to break a deadlock', async () => {
    const project = await bench.json('GET', '/v0/projects/the-computer');
    const [main] = await bench.json('GET', '/v0/projects/the-computer/branches?name=main');
    const database = await openBenchDatabase(bench.databaseUrl);
    class Rollback extends Error {}
    let response: Promise<Response> | undefined;
    try {
      // This transaction holds the head; the report creates benchmark `fresh`, then waits for the head; this
      // transaction then creates `fresh` too and waits for the report: PostgreSQL aborts the report, the first
      // to wait, after its deadlock timeout (1 s), and this transaction rolls back once its insert goes through.
      await database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('head').select('uuid').where('uuid', '=', main.head.uuid).forUpdate().execute();
        response = post({ results: [bmf({ fresh: { latency: 1 } })] });
        await new Promise((resolve) => setTimeout(resolve, 300));
        await insertDimension(trx, 'benchmark', { projectUuid: project.uuid, name: 'fresh', slug: 'fresh' });
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    } finally {
      await database.close();
    }
    expect((await response)?.status).toBe(201);
    expect(await bench.json('GET', '/v0/projects/the-computer/benchmarks?name=fresh')).toHaveLength(1);
  });

  it('reuses the version of a hash and serves one metric', async () => {
    const hash = 'a'.repeat(40);
    const first = (await (await post({ ...unguarded, hash, results: [bmf({ b: { latency: 1 } })] })).json()) as Json;
    const second = (await (await post({ hash, results: [bmf({ b: { latency: 2 } })] })).json()) as Json;
    expect(second.branch.head.version).toEqual(first.branch.head.version);
    const metricUuid = second.results[0][0].measures[0].metric.uuid;
    const metric = await bench.json('GET', `/v0/projects/the-computer/metrics/${metricUuid}`);
    expect(metric).toMatchObject({
      uuid: metricUuid,
      report: second.uuid,
      iteration: 0,
      metric: { value: 2 },
      benchmark: { name: 'b' },
      measure: { slug: 'latency' },
      branch: { name: 'main', head: { version: { number: 0, hash } } },
      threshold: null,
      boundary: null,
      alert: null,
    });
    expect((await bench.call('GET', '/v0/projects/the-computer/metrics/not-a-uuid')).status).toBe(404);
  });

  it('answers a new report as it reads back: alerts, a new head, an unarchived branch', async () => {
    const readBack = async (body: Record<string, unknown>) => {
      const response = await post(body);
      expect(response.status).toBe(201);
      const created = (await response.json()) as Json;
      expect(created).toEqual(await bench.json('GET', `/v0/projects/the-computer/reports/${created.uuid}`));
      return created;
    };
    const thresholds = { models: { latency: { test: 'static', upper_boundary: 5 } } };
    const results = [bmf({ fast: { latency: 1 }, slow: { latency: 9 } }), bmf({ slow: { latency: 2 } })];
    const first = await readBack({ branch: 'feature', start_point: { branch: 'main' }, thresholds, results });
    expect(first.counts.alerts).toEqual({ total: 0, active: 0 });
    const alerting = await readBack({ branch: 'feature', results });
    expect(alerting.counts.alerts).toEqual({ total: 1, active: 1 });
    const archived = await bench.json('PATCH', '/v0/projects/the-computer/branches/feature', {
      token: bench.muriel,
      body: { archived: true },
    });
    expect(archived.archived).not.toBeNull();
    // Shown to the second: the branch's new `modified` must differ from the one read before.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2000 });
    const again = await readBack({ branch: 'feature', start_point: { branch: 'main', reset: true }, results }).finally(
      () => vi.useRealTimers(),
    );
    expect(again.branch.head.uuid).not.toBe(first.branch.head.uuid);
    expect(again.branch.archived).toBeNull();
  });

  it('runs through /v0/run with defaults from the context and creates projects on the fly', async () => {
    const run = await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      body: {
        project: 'the-computer',
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ b: { latency: 1 } })],
        context: { 'bencher.dev/v0/branch/ref/name': 'develop', 'bencher.dev/v0/testbed/os': 'Linux' },
      },
    });
    expect(run.branch.name).toBe('develop');
    expect(run.testbed.name).toBe('Linux');
    const fresh = await bench.json('POST', '/v0/run', {
      body: { project: 'brand-new', start_time: at(0), end_time: at(1), results: [bmf({ b: { latency: 1 } })] },
    });
    expect(fresh.project.slug).toBe('brand-new');
    expect(fresh.branch.name).toBe('main');
    expect(fresh.testbed.name).toBe('localhost');
    const again = { project: 'brand-new', start_time: at(1), end_time: at(2), results: [bmf({ b: { latency: 1 } })] };
    expect((await bench.call('POST', '/v0/run', { body: again })).status).toBe(201);
    expect((await bench.call('POST', '/v0/run', { token: bench.courage, body: again })).status).toBe(201);
    expect((await bench.call('POST', '/v0/run', { body: again })).status).toBe(401);
    expect((await bench.call('DELETE', '/v0/projects/brand-new', { token: bench.courage })).status).toBe(204);
    const ci = await bench.call('POST', '/v0/run', {
      body: {
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ b: { latency: 1 } })],
        context: { 'atrium.dev/v0/ci': 'true', 'bencher.dev/v0/repo/name': 'atrium' },
      },
    });
    expect(ci.status).toBe(400);
    expect(((await ci.json()) as { message: string }).message).toContain('--ci-on-the-fly');

    const idempotent = {
      project: 'the-computer',
      idempotency_key: crypto.randomUUID(),
      start_time: at(5),
      end_time: at(6),
      results: [bmf({ b: { latency: 2 } })],
    };
    const once = await bench.json('POST', '/v0/run', { token: bench.muriel, body: idempotent });
    const twice = await bench.json('POST', '/v0/run', { token: bench.muriel, body: idempotent });
    expect(twice.uuid).toBe(once.uuid);
    expect(await bench.json('GET', '/v0/projects/the-computer/reports?branch=main')).toHaveLength(1);
  });
});
