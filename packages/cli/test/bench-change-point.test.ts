import { describe, expect, it } from 'vitest';
import { htmlReport } from '../src/commands/bench/run/html.js';
import { humanReport, ReportLinks } from '../src/commands/bench/run/report.js';
import { bmfCommand, json, liveBenchSuite } from './bench-support.js';

/** Latency around `level` with a little deterministic noise (±2 %). */
const around = (level: number, i: number) => level * (1 + (((i * 7) % 5) - 2) / 100);

describe('atrium bench run --threshold-test change_point against a live bench server', () => {
  const suite = liveBenchSuite();
  const { cli, run } = suite;

  it('sets the model, alerts once on a step, and names the change in the summary and the comment', {
    timeout: 180_000,
  }, async () => {
    json(await cli(['organization', 'create', '--name', 'Muriel Bagge']));
    json(await cli(['project', 'create', 'muriel-bagge', '--name', 'The Computer', '--slug', 'the-computer']));
    const model = ['--threshold-measure', 'latency', '--threshold-test', 'change_point'];
    const hash = (i: number) => ['--hash', (i + 1).toString(16).padEnd(40, 'a')];
    const first = json(
      await run([...model, '--threshold-upper-boundary', '0.99', ...hash(0), ...bmfCommand(around(100, 0))]),
    );
    expect(first.results[0][0].measures[0].threshold.model).toMatchObject({
      test: 'change_point',
      upper_boundary: 0.99,
    });

    const levels = [...Array(19).fill(100), ...Array(12).fill(130)];
    const alerting = [];
    for (const [k, level] of levels.entries()) {
      const report = json(await run([...hash(k + 1), ...bmfCommand(around(level, k + 1))]));
      if (report.alerts.length > 0) alerting.push(report);
    }
    expect(alerting).toHaveLength(1);
    const [report] = alerting;
    expect(report.alerts[0].change_point).toMatchObject({ direction: 'increase', from_version: 19, to_version: 20 });

    // `--strict` accepts Atrium's documented extension field.
    const alerts = json(await cli(['alert', 'ls', 'the-computer', '--strict']));
    expect(alerts[0].change_point).toEqual(report.alerts[0].change_point);

    // A branch started from master with --start-point-clone-thresholds takes the model along, and its first report
    // (already at master's new level) raises nothing: the branch's regime starts at master's change point.
    const feature = json(
      await run([
        '--branch',
        'feature',
        '--start-point',
        'master',
        '--start-point-clone-thresholds',
        ...hash(40),
        ...bmfCommand(around(130, 40)),
      ]),
    );
    expect(feature.branch.name).toBe('feature');
    expect(feature.results[0][0].measures[0].threshold.model).toMatchObject({
      test: 'change_point',
      upper_boundary: 0.99,
    });
    expect(feature.alerts).toHaveLength(0);

    const links = new ReportLinks('http://localhost:6610', report);
    expect(humanReport(links)).toMatch(
      /^ {2}change point: \+(29|30)\.\d % \(100 → 1(29|30)(\.\d+)?\), between version 19 \(14a{10}\) and version 20 \(15a{10}\)$/m,
    );
    expect(htmlReport(links, { tag: 'x' })).toMatch(
      /📍 change point: \+(29|30)\.\d % \(100 → 1(29|30)(\.\d+)?\), between version 19/,
    );
  });

  it('refuses an unknown test naming change_point among the choices', async () => {
    const refused = await run(['--threshold-measure', 'latency', '--threshold-test', 'changepoint', ...bmfCommand(1)]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('change_point');
  });
});
