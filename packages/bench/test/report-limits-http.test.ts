import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../src/domain/report-limits.js';
import { at, type Bench, seedProject, startBench } from './harness.js';

describeEachDialect('bench report size limits and hostile harness output', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  const report = (results: string[], adapter = 'magic') =>
    bench.call('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: {
        branch: 'main',
        testbed: 'localhost',
        start_time: at(1),
        end_time: at(1),
        results,
        settings: { adapter },
      },
    });

  it('answers the finding’s anonymous /v0/run of a long line of spaces with 400 in well under a second', async () => {
    const started = performance.now();
    const response = await bench.call('POST', '/v0/run', {
      body: {
        project: 'redos-probe',
        start_time: at(1),
        end_time: at(2),
        results: [`a${' '.repeat(128_000)}x`],
        settings: { adapter: 'magic' },
      },
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('Failed to convert results');
  });

  it('refuses harness output over the line limit before parsing it', async () => {
    const response = await report(['\n'.repeat(REPORT_LIMITS.lines)]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(`at most ${REPORT_LIMITS.lines}`);
  });

  it('refuses more benchmarks per iteration than the limit, storing nothing', async () => {
    const results: Record<string, { latency: { value: number } }> = {};
    for (let i = 0; i <= REPORT_LIMITS.benchmarks; i++) results[`b${i}`] = { latency: { value: i } };
    const response = await report([JSON.stringify(results)], 'json');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(`at most ${REPORT_LIMITS.benchmarks}`);
    expect(await bench.json('GET', '/v0/projects/the-computer/benchmarks')).toHaveLength(0);
  });

  it('refuses more measures per benchmark than the limit', async () => {
    const measures: Record<string, { value: number }> = {};
    for (let i = 0; i <= REPORT_LIMITS.measures; i++) measures[`m${i}`] = { value: i };
    const response = await report([JSON.stringify({ b: measures })], 'json');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(`at most ${REPORT_LIMITS.measures}`);
  });

  it('stores a report of 2,000 benchmarks with the benchmarks created in bulk', async () => {
    const results: Record<string, { latency: { value: number } }> = {};
    for (let i = 0; i < 2000; i++) results[`bench ${i}`] = { latency: { value: i } };
    const response = await report([JSON.stringify(results)], 'json');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { results: { benchmark: { name: string } }[][] };
    expect(body.results[0]).toHaveLength(2000);
    expect(body.results[0]?.[0]?.benchmark.name).toBe('bench 0');
  });
});
