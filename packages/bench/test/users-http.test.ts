import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, startBench } from './harness.js';

describeEachDialect('bench users and deprecated tokens over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  it('shows a user to themselves and to admins, and is 404 to anyone else', async () => {
    const muriel = await bench.json('GET', '/v0/users/muriel-bagge', { token: bench.muriel });
    expect(muriel).toMatchObject({
      name: 'Muriel Bagge',
      slug: 'muriel-bagge',
      email: 'muriel.bagge@nowhere.com',
      admin: false,
      locked: false,
    });
    expect(await bench.json('GET', `/v0/users/${muriel.uuid}`, { token: bench.eustace })).toEqual(muriel);
    expect((await bench.call('GET', '/v0/users/muriel-bagge', { token: bench.courage })).status).toBe(404);
    expect((await bench.call('GET', '/v0/users/nobody', { token: bench.eustace })).status).toBe(404);
    expect((await bench.call('GET', '/v0/users/muriel-bagge')).status).toBe(400);
  });

  it('lets users edit themselves, keeps admin and locked to admins, and refuses taken slugs', async () => {
    const renamed = await bench.json('PATCH', '/v0/users/muriel-bagge', {
      token: bench.muriel,
      body: { name: 'Muriel', slug: 'muriel', email: null },
    });
    expect(renamed).toMatchObject({ name: 'Muriel', slug: 'muriel', email: 'muriel.bagge@nowhere.com' });
    expect((await bench.json('GET', '/v0/users/muriel', { token: bench.muriel })).name).toBe('Muriel');

    const promote = await bench.call('PATCH', '/v0/users/muriel', { token: bench.muriel, body: { admin: true } });
    expect(promote.status).toBe(403);
    expect(((await promote.json()) as Json).error_code).toBe('forbidden');
    expect((await bench.call('PATCH', '/v0/users/muriel', { token: bench.courage, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect(
      (await bench.call('PATCH', '/v0/users/muriel', { token: bench.muriel, body: { slug: 'courage' } })).status,
    ).toBe(409);
    for (const body of [{ email: 'not-an-email' }, { nickname: 'm' }, { admin: 'yes' }, '{"name":']) {
      expect((await bench.call('PATCH', '/v0/users/muriel', { token: bench.muriel, body })).status).toBe(400);
    }
    expect(await bench.json('GET', '/v0/users/muriel', { token: bench.muriel })).toMatchObject({
      name: 'Muriel',
      admin: false,
    });

    const locked = await bench.json('PATCH', '/v0/users/muriel', { token: bench.eustace, body: { locked: true } });
    expect(locked.locked).toBe(true);
    expect((await bench.call('GET', '/v0/users/muriel', { token: bench.muriel })).status).toBe(403);
  });

  it('answers tokens as Bencher does since they gave way to user API keys', async () => {
    const created = await bench.call('POST', '/v0/users/muriel-bagge/tokens', {
      token: bench.muriel,
      body: { name: 'ci', ttl: 60 },
    });
    expect(created.status).toBe(403);
    expect(((await created.json()) as Json).message).toContain('/v0/users/muriel-bagge/keys');
    const listed = await bench.call('GET', '/v0/users/muriel-bagge/tokens?revoked=true', { token: bench.muriel });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total-count')).toBe('0');
    expect(await listed.json()).toEqual([]);
    const token = '/v0/users/muriel-bagge/tokens/6bd8b8e0-3b4e-4b4e-9b1a-1b2b3c4d5e6f';
    expect((await bench.call('GET', token, { token: bench.muriel })).status).toBe(404);
    expect((await bench.call('PATCH', token, { token: bench.muriel, body: { name: 'x' } })).status).toBe(404);
    expect((await bench.call('DELETE', token, { token: bench.muriel })).status).toBe(404);
    expect((await bench.call('GET', '/v0/users/muriel-bagge/tokens', { token: bench.courage })).status).toBe(404);
    expect(
      (await bench.call('POST', '/v0/users/muriel-bagge/tokens', { token: bench.muriel, body: { ttl: 1 } })).status,
    ).toBe(400);
  });
});
