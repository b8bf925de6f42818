import { describe, expect, it } from 'vitest';
import { json, liveBenchSuite } from './bench-support.js';

describe('atrium bench plot, user, token and server config commands against a live bench server', () => {
  const { cli } = liveBenchSuite();

  it('pins, lists, updates and deletes a plot', { timeout: 60_000 }, async () => {
    json(await cli(['org', 'create', '--name', 'Plot Org', '--slug', 'plot-org']));
    json(await cli(['project', 'create', 'plot-org', '--name', 'Plotted', '--slug', 'plotted']));
    json(
      await cli([
        'report',
        'create',
        'plotted',
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
      ]),
    );
    const uuidOf = async (kind: string) => json(await cli([kind, 'list', 'plotted']))[0].uuid as string;
    const dimensions = {
      branches: await uuidOf('branch'),
      testbeds: await uuidOf('testbed'),
      benchmarks: await uuidOf('benchmark'),
      measures: await uuidOf('measure'),
    };
    const created = json(
      await cli([
        'plot',
        'create',
        'plotted',
        '--title',
        'Latency',
        '--x-axis',
        'date_time',
        '--window',
        '86400',
        '--upper-boundary',
        'true',
        ...Object.entries(dimensions).flatMap(([option, uuid]) => [`--${option}`, uuid]),
      ]),
    );
    expect(created).toMatchObject({
      title: 'Latency',
      upper_boundary: true,
      lower_boundary: false,
      branches: [dimensions.branches],
      measures: [dimensions.measures],
    });
    expect(json(await cli(['plot', 'list', 'plotted']))).toHaveLength(1);
    expect(json(await cli(['plot', 'view', 'plotted', created.uuid])).window).toBe(86400);
    const updated = json(await cli(['plot', 'update', 'plotted', created.uuid, '--title', '_', '--window', '60']));
    expect(updated).toMatchObject({ title: null, window: 60 });
    expect((await cli(['plot', 'delete', 'plotted', created.uuid])).code).toBe(0);
    expect(json(await cli(['plot', 'list', 'plotted']))).toEqual([]);
  });

  it('views and updates the signed-in user; tokens point to user keys; server config is for admins', async () => {
    expect(json(await cli(['user', 'view', 'muriel-bagge'])).slug).toBe('muriel-bagge');
    expect(json(await cli(['user', 'update', 'muriel-bagge', '--name', 'Muriel B'])).name).toBe('Muriel B');
    expect(json(await cli(['token', 'list', 'muriel-bagge']))).toEqual([]);
    const token = await cli(['token', 'create', 'muriel-bagge', '--name', 'ci']);
    expect(token.code).toBe(1);
    expect(token.stderr).toContain('403');
    const config = await cli(['server', 'config', 'view']);
    expect(config.code).toBe(1);
    expect(config.stderr).toContain('403');
  });
});
