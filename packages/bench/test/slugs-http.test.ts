import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUserAccount, openBenchDatabase } from '../src/index.js';
import { isResourceId, isSlug, slugForName, slugify } from '../src/wire/slug.js';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

/** Slugs Bencher refuses, among them the ones that once reached a console path (security probe L3). */
const INVALID = [
  '../../v0/server/config',
  '../../v0/server/config?x=',
  'a/b',
  'x?y#z',
  '<b>',
  '" "',
  ' ',
  '..',
  'Upper',
  'a'.repeat(65),
  '',
  '-a',
  'a-',
  'a--b',
  'café',
  'a_b',
];

describe('slug rule', () => {
  const cases: [string, boolean][] = [
    ['a-valid-slug', true],
    ['2nd-valid-slug', true],
    ['a'.repeat(64), true],
    ['0', true],
    ...INVALID.map((slug): [string, boolean] => [slug, false]),
  ];
  it.each(cases)('isSlug(%j) is %s, as slugify leaving it unchanged says', (slug, valid) => {
    expect(isSlug(slug)).toBe(valid);
    expect(slug.length >= 1 && slug.length <= 64 && slugify(slug) === slug).toBe(valid);
  });

  it.each([
    ['123e4567-e89b-12d3-a456-426614174000', true],
    ['123E4567-E89B-12D3-A456-426614174000', true],
    ['the-computer', true],
    ['123e4567/e89b', false],
    ['../the-computer', false],
  ])('isResourceId(%j) is %s', (id, valid) => expect(isResourceId(id)).toBe(valid));

  it.each([
    ['My Project', 'my-project'],
    ['...', /^[0-9a-z]{8}$/],
    ['日本', /^[0-9a-z]{8}$/],
  ])('slugForName(%j) is a slug', (name, expected) => {
    const slug = slugForName(name);
    expect(isSlug(slug)).toBe(true);
    if (typeof expected === 'string') expect(slug).toBe(expected);
    else expect(slug).toMatch(expected);
  });
});

describeEachDialect('bench slugs over HTTP', ({ url }) => {
  let bench: Bench;
  let org: Json;
  let project: Json;
  beforeEach(async () => {
    bench = await startBench(url());
    ({ org, project } = await seedProject(bench));
    await bench.json('POST', '/v0/projects/the-computer/benchmarks', { token: bench.muriel, body: { name: 'fib' } });
  });
  afterEach(() => bench.close());

  /** Every request that takes a slug: a create (with the other fields it needs) or an update. */
  const slugTakers = (): { name: string; send: (slug: string) => Promise<Response> }[] => {
    const as = (token: string | undefined, method: string, path: string, body: (slug: string) => object) => ({
      name: `${method} ${path}`,
      send: (slug: string) => bench.call(method, path, { token, body: body(slug) }),
    });
    const muriel = bench.muriel;
    let n = 0;
    const fresh = () => `fresh-${++n}`;
    return [
      as(muriel, 'POST', '/v0/organizations', (slug) => ({ name: fresh(), slug })),
      as(muriel, 'PATCH', `/v0/organizations/${org.uuid}`, (slug) => ({ slug })),
      as(muriel, 'POST', `/v0/organizations/${org.uuid}/projects`, (slug) => ({ name: fresh(), slug })),
      as(muriel, 'PATCH', `/v0/projects/${project.uuid}`, (slug) => ({ slug })),
      as(muriel, 'POST', `/v0/projects/${project.uuid}/branches`, (slug) => ({ name: fresh(), slug })),
      as(muriel, 'PATCH', `/v0/projects/${project.uuid}/branches/main`, (slug) => ({ slug })),
      as(muriel, 'POST', `/v0/projects/${project.uuid}/testbeds`, (slug) => ({ name: fresh(), slug })),
      as(muriel, 'PATCH', `/v0/projects/${project.uuid}/testbeds/localhost`, (slug) => ({ slug })),
      as(muriel, 'POST', `/v0/projects/${project.uuid}/benchmarks`, (slug) => ({ name: fresh(), slug })),
      as(muriel, 'PATCH', `/v0/projects/${project.uuid}/benchmarks/fib`, (slug) => ({ slug })),
      as(muriel, 'POST', `/v0/projects/${project.uuid}/measures`, (slug) => ({ name: fresh(), slug, units: 'x' })),
      as(muriel, 'PATCH', `/v0/projects/${project.uuid}/measures/latency`, (slug) => ({ slug })),
      as(muriel, 'PATCH', '/v0/users/muriel-bagge', (slug) => ({ slug })),
      as(undefined, 'POST', '/v0/auth/signup', (slug) => ({
        name: 'Le Quack',
        email: `quack${++n}@nowhere.com`,
        i_agree: true,
        slug,
      })),
    ];
  };

  it('refuses an invalid slug on every create and update with 400 in the error format, and stores none', async () => {
    for (const taker of slugTakers()) {
      for (const slug of INVALID) {
        const response = await taker.send(slug);
        expect({ taker: taker.name, slug, status: response.status }).toEqual({
          taker: taker.name,
          slug,
          status: 400,
        });
        const body = (await response.json()) as Json;
        expect(body).toMatchObject({ error_code: 'invalid_request', message: expect.stringContaining('body.slug') });
        expect(typeof body.request_id).toBe('string');
      }
    }
    const database = await openBenchDatabase(bench.databaseUrl);
    try {
      for (const table of ['organization', 'project', 'user', 'branch', 'testbed', 'benchmark', 'measure'] as const) {
        const rows = await database.db.selectFrom(table).select('slug').execute();
        expect(rows.map((row) => row.slug).filter((slug) => !isSlug(slug))).toEqual([]);
      }
    } finally {
      await database.close();
    }
  });

  it('accepts valid slugs, up to 64 characters, on every create and update', async () => {
    let n = 0;
    for (const taker of slugTakers()) {
      const slug = `${'s'.repeat(61)}-${String(++n).padStart(2, '0')}`;
      const response = await taker.send(slug);
      expect({ taker: taker.name, status: response.status }).toEqual({
        taker: taker.name,
        status: taker.name.endsWith('signup') ? 202 : taker.name.startsWith('POST') ? 201 : 200,
      });
      if (!taker.name.endsWith('signup')) expect(((await response.json()) as Json).slug).toBe(slug);
    }
  });

  it('refuses an invalid slug from `atrium bench admin user create --slug`', async () => {
    const database = await openBenchDatabase(bench.databaseUrl);
    try {
      for (const slug of ['../../v0/server/config', 'Upper', '']) {
        await expect(
          createUserAccount(database.db, { name: 'Le Quack', email: 'quack@nowhere.com', slug }),
        ).rejects.toThrow('invalid slug');
      }
      const user = await createUserAccount(database.db, {
        name: 'Le Quack',
        email: 'quack@nowhere.com',
        slug: 'quack',
      });
      expect(user.slug).toBe('quack');
    } finally {
      await database.close();
    }
  });

  it('gives a name without slug characters a random valid slug', async () => {
    const organization = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: '...' } });
    const testbed = await bench.json('POST', '/v0/projects/the-computer/testbeds', {
      token: bench.muriel,
      body: { name: '日本' },
    });
    expect([organization.slug, testbed.slug].filter((slug) => !isSlug(slug))).toEqual([]);
    expect((await bench.call('GET', `/v0/organizations/${organization.slug}`, { token: bench.muriel })).status).toBe(
      200,
    );
  });

  it('answers 400 for a path id that is neither a UUID nor a slug, and 404 for an unknown one', async () => {
    for (const id of INVALID.filter((slug) => slug !== '' && slug !== '..')) {
      const response = await bench.call('GET', `/v0/projects/${encodeURIComponent(id)}`, { token: bench.muriel });
      expect({ id, status: response.status }).toEqual({ id, status: 400 });
      expect(((await response.json()) as Json).message).toContain('params.project');
    }
    expect((await bench.call('GET', '/v0/projects/no-such-project')).status).toBe(404);
    expect((await bench.call('GET', `/v0/projects/${project.uuid.toUpperCase()}`)).status).toBe(200);
    const branch = await bench.call('GET', `/v0/projects/the-computer/branches/${encodeURIComponent('Main Line')}`);
    expect(branch.status).toBe(400);
  });

  it('keeps a stored pre-validation slug working by UUID only, until it is renamed', async () => {
    const legacy = '../../v0/server/config?x=';
    const database = await openBenchDatabase(bench.databaseUrl);
    try {
      await database.db.updateTable('project').set({ slug: legacy }).where('uuid', '=', project.uuid).execute();
    } finally {
      await database.close();
    }
    const bySlug = await bench.call('GET', `/v0/projects/${encodeURIComponent(legacy)}`, { token: bench.muriel });
    expect(bySlug.status).toBe(400);
    expect(await bench.json('GET', `/v0/projects/${project.uuid}`, { token: bench.muriel })).toMatchObject({
      slug: legacy,
    });
    const renamed = await bench.json('PATCH', `/v0/projects/${project.uuid}`, {
      token: bench.muriel,
      body: { slug: 'the-computer-again' },
    });
    expect(renamed.slug).toBe('the-computer-again');
    expect((await bench.call('GET', '/v0/projects/the-computer-again')).status).toBe(200);
  });

  it('refuses a run naming an invalid project, and creates one on the fly only for a valid slug', async () => {
    const run = (projectId: string) =>
      bench.call('POST', '/v0/run', {
        token: bench.muriel,
        body: { project: projectId, start_time: at(0), end_time: at(1), results: [bmf({ b: { latency: 1 } })] },
      });
    for (const id of ['../../v0/server/config', 'a/b', 'Upper', '<b>']) {
      const response = await run(id);
      expect({ id, status: response.status }).toEqual({ id, status: 400 });
      expect(((await response.json()) as Json).message).toContain('body.project');
    }
    expect(await bench.json('GET', '/v0/projects', { token: bench.muriel })).toHaveLength(1);
    expect((await run('made-on-the-fly')).status).toBe(201);
    expect((await bench.json('GET', '/v0/projects/made-on-the-fly')).slug).toBe('made-on-the-fly');
  });
});
