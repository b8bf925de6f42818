import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mintJwt } from '../src/index.js';
import { type Bench, seedProject, startBench } from './harness.js';

describeEachDialect('bench organizations and projects over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  it('creates, lists, patches and soft-deletes organizations and projects', async () => {
    const { org, project } = await seedProject(bench);
    expect(org).toMatchObject({ name: 'Muriel Bagge', slug: 'muriel-bagge' });
    expect(project).toMatchObject({
      name: 'The Computer',
      slug: 'the-computer',
      url: null,
      visibility: 'public',
      organization: org.uuid,
    });

    const orgs = await bench.call('GET', '/v0/organizations', { token: bench.muriel });
    expect(orgs.headers.get('x-total-count')).toBe('1');
    expect(await bench.json('GET', '/v0/organizations', { token: bench.courage })).toEqual([]);

    const anonymous = await bench.call('GET', '/v0/projects');
    expect(anonymous.status).toBe(200);
    expect(((await anonymous.json()) as unknown[]).length).toBe(1);
    expect(await bench.json('GET', '/v0/projects?search=COMP')).toHaveLength(1);
    expect(await bench.json('GET', '/v0/projects?search=%25')).toHaveLength(0);

    const duplicate = await bench.call('POST', `/v0/organizations/${org.slug}/projects`, {
      token: bench.muriel,
      body: { name: 'The Computer' },
    });
    expect(duplicate.status).toBe(409);

    const patched = await bench.json('PATCH', '/v0/projects/the-computer', {
      token: bench.muriel,
      body: { url: 'https://example.com/computer', name: 'Computer' },
    });
    expect(patched).toMatchObject({ url: 'https://example.com/computer', name: 'Computer' });
    const cleared = await bench.json('PATCH', `/v0/projects/${project.uuid}`, {
      token: bench.muriel,
      body: { url: null },
    });
    expect(cleared.url).toBeNull();

    const stranger = await bench.call('PATCH', '/v0/projects/the-computer', {
      token: bench.courage,
      body: { name: 'Mine' },
    });
    expect(stranger.status).toBe(403);
    const nobody = await bench.call('PATCH', '/v0/projects/the-computer', { body: { name: 'Mine' } });
    expect(nobody.status).toBe(401);

    const deleted = await bench.call('DELETE', '/v0/projects/the-computer', { token: bench.muriel });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await bench.call('GET', '/v0/projects/the-computer')).status).toBe(404);
  });

  it('hides a private project from strangers exactly like a missing one', async () => {
    await seedProject(bench, 'private');
    const missing = await bench.call('GET', '/v0/projects/no-such-project', { token: bench.courage });
    const hidden = await bench.call('GET', '/v0/projects/the-computer', { token: bench.courage });
    const anonymous = await bench.call('GET', '/v0/projects/the-computer/branches');
    expect(hidden.status).toBe(404);
    expect(anonymous.status).toBe(404);
    const hiddenBody = (await hidden.json()) as { message: string };
    const missingBody = (await missing.json()) as { message: string };
    expect(hiddenBody.message.replace('the-computer', 'X')).toBe(missingBody.message.replace('no-such-project', 'X'));
    expect((await bench.call('PATCH', '/v0/projects/the-computer', { token: bench.courage, body: {} })).status).toBe(
      404,
    );
    expect((await bench.call('GET', '/v0/projects/the-computer', { token: bench.muriel })).status).toBe(200);
    expect((await bench.call('GET', '/v0/projects/the-computer', { token: bench.eustace })).status).toBe(200);
    expect(await bench.json('GET', '/v0/projects')).toEqual([]);
    expect(await bench.json('GET', '/v0/projects', { token: bench.muriel })).toHaveLength(1);
  });

  it('rejects bad credentials and bodies in Bencher error form', async () => {
    const forged = await bench.call('GET', '/v0/organizations', { token: 'a.b.c' });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toContain('Failed to validate JSON Web Token');
    const unknown = await bench.call('POST', '/v0/organizations', {
      token: bench.muriel,
      body: { name: 'X', color: 'red' },
    });
    expect(unknown.status).toBe(400);
    const malformed = await bench.call('POST', '/v0/organizations', { token: bench.muriel, body: '{"name":' });
    expect(malformed.status).toBe(400);
    const wrongType = await bench.call('POST', '/v0/organizations', { token: bench.muriel, body: { name: 42 } });
    expect(wrongType.status).toBe(400);
    const badKey = await bench.call('GET', '/v0/projects', { token: `atrium_user_${'a'.repeat(30)}` });
    expect(badKey.status).toBe(401);
    const ghost = await bench.call('GET', '/v0/organizations', {
      token: (await import('./harness.js')).tokenFor('ghost@nowhere.com'),
    });
    expect(ghost.status).toBe(404);
    expect(await ghost.text()).not.toContain('ghost@nowhere.com');
  });

  it("accepts a JWT shaped like Bencher's test fixtures under the default debug secret", async () => {
    const fixture = mintJwt(
      {
        aud: 'api_key',
        exp: 5993643609,
        iat: 1693933209,
        iss: 'http://localhost:3000/',
        sub: 'muriel.bagge@nowhere.com',
      },
      'DO_NOT_USE_THIS_IN_PRODUCTION',
    );
    expect((await bench.call('GET', '/v0/organizations', { token: fixture })).status).toBe(200);
    const wrongAudience = mintJwt(
      {
        aud: 'invite',
        exp: 5993643609,
        iat: 1693933209,
        iss: 'http://localhost:3000/',
        sub: 'muriel.bagge@nowhere.com',
      },
      'DO_NOT_USE_THIS_IN_PRODUCTION',
    );
    expect((await bench.call('GET', '/v0/organizations', { token: wrongAudience })).status).toBe(401);
    const expired = mintJwt(
      { aud: 'client', exp: 1, iat: 0, iss: 'http://localhost:3000/', sub: 'muriel.bagge@nowhere.com' },
      'DO_NOT_USE_THIS_IN_PRODUCTION',
    );
    expect((await bench.call('GET', '/v0/organizations', { token: expired })).status).toBe(401);
    const otherSecret = mintJwt(
      { aud: 'client', exp: 5993643609, iat: 0, iss: 'http://localhost:3000/', sub: 'muriel.bagge@nowhere.com' },
      'another secret entirely',
    );
    expect((await bench.call('GET', '/v0/organizations', { token: otherSecret })).status).toBe(401);
  });

  it('lists users for admins only', async () => {
    const users = await bench.call('GET', '/v0/users', { token: bench.eustace });
    expect(users.status).toBe(200);
    expect(users.headers.get('x-total-count')).toBe('3');
    expect((await bench.call('GET', '/v0/users', { token: bench.muriel })).status).toBe(403);
  });
});
