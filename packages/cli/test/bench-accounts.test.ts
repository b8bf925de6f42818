import { describe, expect, it } from 'vitest';
import { bmfCommand, json, liveBenchSuite } from './bench-support.js';

describe('atrium bench with accounts and project defaults against a live bench server', () => {
  const suite = liveBenchSuite();
  const { cli, run } = suite;

  it('a run with --threshold-test t_test and no boundary gets the default 0.95; new projects have two thresholds', {
    timeout: 60_000,
  }, async () => {
    json(await cli(['organization', 'create', '--name', 'Muriel Bagge']));
    json(await cli(['project', 'create', 'muriel-bagge', '--name', 'The Computer', '--slug', 'the-computer']));
    const defaults = json(await cli(['threshold', 'list', 'the-computer']));
    expect(defaults.map((t: { measure: { slug: string } }) => t.measure.slug).sort()).toEqual([
      'latency',
      'throughput',
    ]);

    const report = json(
      await run(['--threshold-measure', 'latency', '--threshold-test', 't_test', ...bmfCommand(100)]),
    );
    expect(report.testbed.slug).toBe('base');
    expect(report.results[0][0].measures[0].threshold.model).toMatchObject({
      test: 't_test',
      lower_boundary: null,
      upper_boundary: 0.95,
    });
    expect(json(await cli(['threshold', 'list', 'the-computer']))).toHaveLength(3);
  });

  it('prints an empty outbox, then the sign-up confirmation newest first', { timeout: 60_000 }, async () => {
    const admin = (args: string[]) => cli(['admin', 'outbox', '--data-dir', suite.bench.dir, ...args]);
    expect((await admin([])).stdout).toBe('The outbox is empty.\n');
    for (const name of ['First', 'Second']) {
      const response = await fetch(`${suite.bench.base}/v0/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, email: `${name.toLowerCase()}@nowhere.com`, i_agree: true }),
      });
      expect(response.status).toBe(202);
    }
    const printed = await admin([]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.indexOf('To: second@nowhere.com')).toBeLessThan(
      printed.stdout.indexOf('To: first@nowhere.com'),
    );
    const listed = json(await admin(['--json', '--limit', '1']));
    expect(listed.map((m: { recipient: string }) => m.recipient)).toEqual(['second@nowhere.com']);
    const token = /^Code: (\S+)$/m.exec(listed[0].body)?.[1] as string;
    const confirmed = await fetch(`${suite.bench.base}/v0/auth/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(confirmed.status).toBe(200);
    expect((await admin(['--limit', '0'])).code).toBe(2);
  });
});
