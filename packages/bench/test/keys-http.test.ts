import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { at, type Bench, bmf, seedProject, startBench } from './harness.js';

describeEachDialect('bench API keys over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  const run = (key: string, project = 'the-computer') =>
    bench.call('POST', '/v0/run', {
      token: key,
      body: { project, start_time: at(0), end_time: at(1), results: [bmf({ b: { latency: 1 } })] },
    });

  it('issues project keys once, stores only their hash, scopes them to one project, and revokes them', async () => {
    await seedProject(bench, 'private');
    const created = await bench.json('POST', '/v0/projects/the-computer/keys', {
      token: bench.muriel,
      body: { name: 'ci' },
    });
    expect(created.key).toMatch(/^atrium_run_[A-Za-z0-9]{30}$/);
    const database = await openBenchDatabase(url());
    const stored = await database.db
      .selectFrom('api_key')
      .selectAll()
      .where('uuid', '=', created.uuid)
      .executeTakeFirstOrThrow();
    await database.close();
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.key);

    expect((await run(created.key)).status).toBe(201);
    expect((await bench.call('GET', '/v0/projects/the-computer/reports', { token: created.key })).status).toBe(200);
    expect(await bench.json('GET', '/v0/projects', { token: created.key })).toHaveLength(1);
    expect((await bench.call('DELETE', '/v0/projects/the-computer', { token: created.key })).status).toBe(403);
    expect((await run(created.key, 'elsewhere')).status).toBe(401);
    expect(
      (
        await bench.call('PATCH', '/v0/projects/the-computer/branches/main', {
          token: created.key,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(403);
    expect((await bench.call('GET', '/v0/projects/the-computer/keys', { token: bench.courage })).status).toBe(404);

    const listed = await bench.json('GET', '/v0/projects/the-computer/keys', { token: bench.muriel });
    expect(listed).toHaveLength(1);
    expect(listed[0].key).toBeUndefined();
    const renamed = await bench.json('PATCH', `/v0/projects/the-computer/keys/${created.uuid}`, {
      token: bench.muriel,
      body: { name: 'ci-renamed' },
    });
    expect(renamed.name).toBe('ci-renamed');
    expect(
      (await bench.call('DELETE', `/v0/projects/the-computer/keys/${created.uuid}`, { token: bench.muriel })).status,
    ).toBe(204);
    expect(
      (await bench.call('DELETE', `/v0/projects/the-computer/keys/${created.uuid}`, { token: bench.muriel })).status,
    ).toBe(409);
    expect((await run(created.key)).status).toBe(401);
    expect(await bench.json('GET', '/v0/projects/the-computer/keys', { token: bench.muriel })).toEqual([]);
    expect(
      await bench.json('GET', '/v0/projects/the-computer/keys?revoked=true', { token: bench.muriel }),
    ).toHaveLength(1);
  });

  it('lets user keys act as their user but only manage themselves', async () => {
    await seedProject(bench);
    const key = await bench.json('POST', '/v0/users/muriel-bagge/keys', {
      token: bench.muriel,
      body: { name: 'laptop' },
    });
    expect(key.key).toMatch(/^atrium_user_[A-Za-z0-9]{30}$/);
    await bench.json('POST', '/v0/users/muriel-bagge/keys', { token: bench.muriel, body: { name: 'other' } });
    expect((await run(key.key)).status).toBe(201);
    expect(
      (await bench.call('POST', '/v0/users/muriel-bagge/keys', { token: key.key, body: { name: 'x' } })).status,
    ).toBe(403);
    expect(await bench.json('GET', '/v0/users/muriel-bagge/keys', { token: key.key })).toHaveLength(1);
    expect(await bench.json('GET', '/v0/users/muriel-bagge/keys', { token: bench.muriel })).toHaveLength(2);
    expect((await bench.call('GET', '/v0/users/muriel-bagge/keys', { token: bench.courage })).status).toBe(404);
    expect((await bench.call('DELETE', `/v0/users/muriel-bagge/keys/${key.uuid}`, { token: key.key })).status).toBe(
      204,
    );
    expect((await run(key.key)).status).toBe(401);
  });
});
