import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

const PLOTS = '/v0/projects/the-computer/plots';

describeEachDialect('bench pinned plots over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  /** A project with one report, and a valid `JsonNewPlot` over its dimensions. */
  async function seed(visibility: 'public' | 'private') {
    await seedProject(bench, visibility);
    await bench.json('POST', '/v0/run', {
      token: bench.muriel,
      status: 201,
      body: { project: 'the-computer', start_time: at(0), end_time: at(1), results: [bmf({ b: { latency: 1 } })] },
    });
    const uuidsOf = async (kind: string) =>
      ((await bench.json('GET', `/v0/projects/the-computer/${kind}`, { token: bench.muriel })) as Json[])
        .slice(0, 1)
        .map((row) => row.uuid as string);
    return {
      branches: await uuidsOf('branches'),
      testbeds: await uuidsOf('testbeds'),
      benchmarks: await uuidsOf('benchmarks'),
      measures: await uuidsOf('measures'),
      lower_value: false,
      upper_value: false,
      lower_boundary: true,
      upper_boundary: true,
      window: 2419200,
      x_axis: 'date_time',
    };
  }

  const create = (body: unknown) => bench.json('POST', PLOTS, { token: bench.muriel, body, status: 201 });
  const titles = async () =>
    ((await bench.json('GET', PLOTS, { token: bench.muriel })) as Json[]).map((plot) => plot.title);

  it('creates, lists in index order, views, updates, reorders and deletes plots', async () => {
    const plot = await seed('public');
    const first = await create({ ...plot, title: 'First' });
    expect(first).toMatchObject({ ...plot, title: 'First', y_axis: 'auto', project: expect.any(String) });
    await create({ ...plot, title: 'Second' });
    await create({ ...plot, title: 'Zeroth', index: 0 });
    expect(await titles()).toEqual(['Zeroth', 'First', 'Second']);

    expect(await bench.json('GET', `${PLOTS}/${first.uuid}`)).toEqual(first);
    const updated = await bench.json('PATCH', `${PLOTS}/${first.uuid}`, {
      token: bench.muriel,
      body: { title: null, y_axis: 'log', upper_value: true, index: 2 },
    });
    expect(updated).toMatchObject({ uuid: first.uuid, title: null, y_axis: 'log', upper_value: true, window: 2419200 });
    expect(await titles()).toEqual(['Zeroth', 'Second', null]);
    const page = await bench.call('GET', `${PLOTS}?per_page=1&page=2`);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(((await page.json()) as Json[])[0].title).toBe('Second');
    expect(((await bench.json('GET', `${PLOTS}?search=zero`)) as Json[]).map((p) => p.title)).toEqual(['Zeroth']);

    expect((await bench.call('DELETE', `${PLOTS}/${first.uuid}`, { token: bench.muriel })).status).toBe(204);
    expect((await bench.call('GET', `${PLOTS}/${first.uuid}`)).status).toBe(404);
    const { lower_boundary: _lower, upper_boundary: _upper, ...withoutFlags } = plot;
    expect(await create({ ...withoutFlags, title: 'Last' })).toMatchObject({
      lower_boundary: false,
      lower_value: false,
    });
    expect(await titles()).toEqual(['Zeroth', 'Second', 'Last']);
  });

  it('hides a private project’s plots from strangers and lets only members change them', async () => {
    const plot = await seed('private');
    const created = await create(plot);
    for (const token of [bench.courage, undefined]) {
      expect((await bench.call('GET', PLOTS, { token })).status).toBe(404);
      expect((await bench.call('GET', `${PLOTS}/${created.uuid}`, { token })).status).toBe(404);
      expect((await bench.call('POST', PLOTS, { token, body: plot })).status).toBe(404);
      expect((await bench.call('DELETE', `${PLOTS}/${created.uuid}`, { token })).status).toBe(404);
    }
    expect(await bench.json('GET', PLOTS, { token: bench.eustace })).toHaveLength(1);
  });

  it('refuses bad plots with a clear error and keeps what is stored', async () => {
    const plot = await seed('public');
    const created = await create(plot);
    const foreign = '6bd8b8e0-3b4e-4b4e-9b1a-1b2b3c4d5e6f';
    const unknownBranch = await bench.call('POST', PLOTS, {
      token: bench.muriel,
      body: { ...plot, branches: [foreign] },
    });
    expect(unknownBranch.status).toBe(404);
    expect(((await unknownBranch.json()) as Json).message).toContain(`Branch (${foreign})`);
    for (const body of [
      { ...plot, measures: [] },
      { ...plot, x_axis: 'sideways' },
      { ...plot, colour: 'red' },
      { ...plot, branches: ["x' or 1=1 --"] },
      '{"window":',
    ]) {
      expect((await bench.call('POST', PLOTS, { token: bench.muriel, body })).status).toBe(400);
    }
    expect(
      (await bench.call('PATCH', `${PLOTS}/${created.uuid}`, { token: bench.muriel, body: { testbeds: [foreign] } }))
        .status,
    ).toBe(404);
    expect((await bench.call('GET', PLOTS, { token: bench.courage })).status).toBe(200);
    expect((await bench.call('PATCH', `${PLOTS}/${created.uuid}`, { token: bench.courage, body: {} })).status).toBe(
      403,
    );
    expect(await bench.json('GET', `${PLOTS}/${created.uuid}`)).toEqual(created);
    expect((await bench.call('GET', `${PLOTS}/not-a-uuid`)).status).toBe(404);
  });

  it('caps a project at 64 plots', async () => {
    const plot = await seed('public');
    for (let i = 0; i < 64; i++) await create(plot);
    const refused = await bench.call('POST', PLOTS, { token: bench.muriel, body: plot });
    expect(refused.status).toBe(400);
    expect((await bench.call('GET', `${PLOTS}?per_page=1`)).headers.get('x-total-count')).toBe('64');
  });
});
