import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

describeEachDialect('perf of a branch and its start point together', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('plots the reports both heads hold on each branch', async () => {
    const post = (branch: string, second: number) =>
      bench.json('POST', '/v0/projects/the-computer/reports', {
        token: bench.muriel,
        body: {
          branch,
          testbed: 'lab',
          hash: `${second}`.padStart(40, '0'),
          start_time: at(second),
          end_time: at(second + 1),
          results: [bmf({ sort: { latency: second } })],
        },
      });
    for (const second of [0, 10, 20]) await post('main', second);
    await bench.json('POST', '/v0/projects/the-computer/branches', {
      token: bench.muriel,
      body: { name: 'feature', start_point: { branch: 'main' } },
    });
    await post('feature', 30);
    const uuid = async (plural: string, slug: string) => {
      const rows: Json[] = await bench.json('GET', `/v0/projects/the-computer/${plural}?per_page=255`, {
        token: bench.muriel,
      });
      return rows.find((row) => row.slug === slug).uuid as string;
    };
    const query = new URLSearchParams({
      branches: `${await uuid('branches', 'main')},${await uuid('branches', 'feature')}`,
      testbeds: await uuid('testbeds', 'lab'),
      benchmarks: await uuid('benchmarks', 'sort'),
      measures: await uuid('measures', 'latency'),
    });
    const perf = await bench.json('GET', `/v0/projects/the-computer/perf?${query}`, { token: bench.muriel });
    const values = Object.fromEntries(
      (perf.results as Json[]).map((result) => [
        result.branch.slug,
        (result.metrics as Json[]).map((metric) => metric.metric.value),
      ]),
    );
    expect(values).toEqual({ main: [0, 10, 20], feature: [0, 10, 20, 30] });
  });
});
