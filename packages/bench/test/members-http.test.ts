import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { at, type Bench, bmf, type Json, outboxOf, seedProject, startBench, tokenFor } from './harness.js';

/** The newest message in the server's outbox: its text and the invite code it carries. */
async function lastMessage(bench: Bench): Promise<{ text: string; invite: string; status: string }> {
  const [message] = await outboxOf(bench, 1);
  if (!message) throw new Error('the outbox is empty');
  const text = `To: ${message.recipient}\nSubject: ${message.subject}\n\n${message.body}`;
  return { text, invite: /^Invite code: (\S+)$/m.exec(text)?.[1] as string, status: message.status };
}

describeEachDialect('bench organization members, invitations, claims, allowed and usage over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  const invite = async (org: string, email: string, role: string, token = bench.muriel) => {
    const response = await bench.call('POST', `/v0/organizations/${org}/members`, { token, body: { email, role } });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ email });
    return (await lastMessage(bench)).invite;
  };
  const accept = (invitation: string, token: string) =>
    bench.call('POST', '/v0/auth/accept', { token, body: { invite: invitation } });

  it('leaders stepping down all at once leave one leader', async () => {
    const { org } = await seedProject(bench, 'private');
    const members = `/v0/organizations/${org.slug}/members`;
    expect((await accept(await invite(org.slug, 'courage@nowhere.com', 'leader'), bench.courage)).status).toBe(202);
    expect((await accept(await invite(org.slug, 'eustace.bagge@nowhere.com', 'leader'), bench.eustace)).status).toBe(
      202,
    );
    const leaders = [
      ['muriel-bagge', bench.muriel],
      ['courage', bench.courage],
      ['eustace-bagge', bench.eustace],
    ] as const;
    const responses = await Promise.all(
      leaders.map(([slug, token]) => bench.call('PATCH', `${members}/${slug}`, { token, body: { role: 'member' } })),
    );
    // The last leader cannot step down (409); the others may.
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    const roles = ((await bench.json('GET', members, { token: bench.muriel })) as Json[]).map((m) => m.role);
    expect(roles.sort()).toEqual(['leader', 'member', 'member']);
  });

  it('invites, lists, views, promotes and removes members, always keeping a leader', async () => {
    const { org } = await seedProject(bench, 'private');
    const members = `/v0/organizations/${org.slug}/members`;
    const first = await bench.call('GET', members, { token: bench.muriel });
    expect(first.headers.get('x-total-count')).toBe('1');
    const [muriel] = (await first.json()) as Json[];
    expect(Object.keys(muriel).sort()).toEqual(['created', 'email', 'modified', 'name', 'role', 'slug', 'uuid']);
    expect(muriel).toMatchObject({ name: 'Muriel Bagge', slug: 'muriel-bagge', role: 'leader' });

    const code = await invite(org.slug, 'courage@nowhere.com', 'member');
    const message = await lastMessage(bench);
    expect(message.status).toBe('outbox');
    expect(message.text).toContain('To: courage@nowhere.com\nSubject: Invitation to join Muriel Bagge\n');
    // Courage has an account: the link logs in (a new address gets the sign-up page, see invitations-http).
    expect(message.text).toContain(`Accept at ${bench.base}/auth/login?invite=${code}\n`);
    expect((await bench.call('GET', `${members}/courage`, { token: bench.muriel })).status).toBe(404);
    const accepted = await accept(code, bench.courage);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ email: 'courage@nowhere.com' });

    const names = async (query: string, token = bench.muriel) =>
      ((await bench.json('GET', `${members}${query}`, { token })) as Json[]).map((m) => m.slug);
    expect(await names('')).toEqual(['courage', 'muriel-bagge']);
    expect(await names('?direction=desc')).toEqual(['muriel-bagge', 'courage']);
    expect(await names('?per_page=1&page=2')).toEqual(['muriel-bagge']);
    expect(await names('?search=COUR')).toEqual(['courage']);
    expect(await names('?name=Courage')).toEqual(['courage']);
    expect(await names('?search=%25')).toEqual([]);
    const courage = await bench.json('GET', `${members}/courage`, { token: bench.muriel });
    expect(courage).toMatchObject({ name: 'Courage', email: 'courage@nowhere.com', role: 'member' });
    expect(await bench.json('GET', `${members}/${courage.uuid}`, { token: bench.muriel })).toEqual(courage);

    // A member sees the organisation and its members but may change nothing, nor see private projects.
    expect(await names('', bench.courage)).toEqual(['courage', 'muriel-bagge']);
    for (const [method, path, body] of [
      ['POST', members, { email: 'eustace.bagge@nowhere.com', role: 'member' }],
      ['PATCH', `${members}/muriel-bagge`, { role: 'member' }],
      ['DELETE', `${members}/muriel-bagge`, undefined],
      ['PATCH', `/v0/organizations/${org.slug}`, { name: 'Mine' }],
      ['GET', `/v0/organizations/${org.slug}/usage`, undefined],
    ] as const) {
      const refused = await bench.call(method, path, { token: bench.courage, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(((await refused.json()) as Json).error_code).toBe('forbidden');
    }
    expect((await bench.call('GET', '/v0/projects/the-computer', { token: bench.courage })).status).toBe(404);
    expect((await bench.call('GET', members, { token: bench.eustace })).status).toBe(200);

    const promoted = await bench.json('PATCH', `${members}/courage`, { token: bench.muriel, body: { role: 'leader' } });
    expect(promoted.role).toBe('leader');
    expect(await bench.json('PATCH', `${members}/courage`, { token: bench.muriel, body: {} })).toEqual(promoted);
    expect(
      (await bench.json('PATCH', `${members}/muriel-bagge`, { token: bench.courage, body: { role: 'member' } })).role,
    ).toBe('member');
    for (const [method, body] of [
      ['PATCH', { role: 'member' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await bench.call(method, `${members}/courage`, { token: bench.courage, body });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as Json).message).toContain('at least one leader');
    }
    // Anyone may leave: Muriel, now a member, removes herself and no longer sees the organisation.
    expect((await bench.call('DELETE', `${members}/muriel-bagge`, { token: bench.muriel })).status).toBe(204);
    expect((await bench.call('GET', `/v0/organizations/${org.slug}`, { token: bench.muriel })).status).toBe(404);
    expect(await names('', bench.courage)).toEqual(['courage']);
  });

  it('accepts an invitation only from its addressee, signed by this server, once', async () => {
    const { org } = await seedProject(bench);
    const code = await invite(org.uuid, 'eustace.bagge@nowhere.com', 'leader');
    expect((await accept(code, bench.courage)).status).toBe(403);
    expect((await bench.call('GET', `/v0/organizations/${org.slug}`, { token: code })).status).toBe(401);
    const [header, payload] = code.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    expect(claims).toMatchObject({ aud: 'invite', sub: 'eustace.bagge@nowhere.com', org: { uuid: org.uuid } });
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'courage@nowhere.com' })).toString('base64url')}.${code.split('.')[2]}`;
    for (const bad of [forged, tokenFor('eustace.bagge@nowhere.com'), 'not-a-jwt']) {
      const refused = await accept(bad, bench.eustace);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Json).message).toMatch(/^Failed to validate the invitation/);
    }
    expect((await bench.call('POST', '/v0/auth/accept', { body: { invite: code } })).status).toBe(400);
    expect((await accept(code, bench.eustace)).status).toBe(202);
    expect((await accept(code, bench.eustace)).status).toBe(409);
    const again = await bench.call('POST', `/v0/organizations/${org.slug}/members`, {
      token: bench.muriel,
      body: { email: 'eustace.bagge@nowhere.com', role: 'member' },
    });
    expect(again.status).toBe(409);
    expect(
      ((await bench.json('GET', `/v0/organizations/${org.slug}/members`, { token: bench.eustace })) as Json[]).map(
        (m) => [m.slug, m.role],
      ),
    ).toEqual([
      ['eustace-bagge', 'leader'],
      ['muriel-bagge', 'leader'],
    ]);
  });

  it('refuses strangers, bad bodies and hostile strings in Bencher error form', async () => {
    const { org } = await seedProject(bench);
    const members = `/v0/organizations/${org.slug}/members`;
    for (const [method, path] of [
      ['GET', members],
      ['POST', members],
      ['GET', `${members}/muriel-bagge`],
      ['GET', `/v0/organizations/${org.slug}/allowed/view`],
      ['GET', `/v0/organizations/${org.slug}/usage`],
    ] as const) {
      const body = method === 'POST' ? { email: 'courage@nowhere.com', role: 'leader' } : undefined;
      const hidden = await bench.call(method, path, { token: bench.courage, body });
      expect(hidden.status, `${method} ${path}`).toBe(404);
      expect(((await hidden.json()) as Json).message).toContain('may be private');
      expect((await bench.call(method, path, { body })).status).toBe(400);
    }
    for (const body of [
      { email: 'courage@nowhere.com', role: 'owner' },
      { email: 'not-an-email', role: 'member' },
      { email: 'courage@nowhere.com', role: 'member', admin: true },
      { email: 'courage@nowhere.com', role: 'member', name: 'Robert"); DROP TABLE user; --' },
      { email: 'courage@nowhere.com', role: 'member', name: 'Evil\nBcc: all@example.com' },
      { email: 'courage@nowhere.com\nBcc: all@example.com', role: 'member' },
      { email: 42, role: 'member' },
      { role: 'member' },
      '{"email":',
    ]) {
      const refused = await bench.call('POST', members, { token: bench.muriel, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await refused.json()) as Json)).toContain('request_id');
    }
    for (const body of [{ role: 'owner' }, { role: 1 }, { rank: 'leader' }]) {
      expect((await bench.call('PATCH', `${members}/muriel-bagge`, { token: bench.muriel, body })).status).toBe(400);
    }
    for (const body of [{}, { invite: 7 }, { invite: '' }, { invite: 'x', extra: 1 }]) {
      expect((await bench.call('POST', '/v0/auth/accept', { token: bench.muriel, body })).status).toBe(400);
    }
    expect(
      (
        await bench.call('POST', members, {
          token: bench.muriel,
          body: { email: 'zoe@nowhere.com', role: 'member', name: "Zoë O'Brien-Ünal" },
        })
      ).status,
    ).toBe(202);
    expect((await lastMessage(bench)).text).toContain("Ahoy Zoë O'Brien-Ünal!");
    const hostile = encodeURIComponent("x' OR '1'='1");
    expect((await bench.call('GET', `${members}/${hostile}`, { token: bench.muriel })).status).toBe(400);
    expect((await bench.call('GET', `${members}?search=${hostile}`, { token: bench.muriel })).status).toBe(200);
    expect((await bench.call('GET', `${members}?per_page=0`, { token: bench.muriel })).status).toBe(400);
    expect((await bench.call('GET', `${members}?sort=email`, { token: bench.muriel })).status).toBe(400);

    const evil = await bench.json('POST', '/v0/organizations', {
      token: bench.muriel,
      body: { name: 'Evil\nBcc: all@example.com' },
    });
    await invite(evil.uuid, 'courage@nowhere.com', 'member');
    expect((await lastMessage(bench)).text.split('\n\n')[0]).toBe(
      'To: courage@nowhere.com\nSubject: Invitation to join Evil Bcc: all@example.com',
    );
  });

  it('answers allowed by role, hiding what the caller cannot see', async () => {
    const { org } = await seedProject(bench);
    const secret = await bench.json('POST', `/v0/organizations/${org.slug}/projects`, {
      token: bench.muriel,
      body: { name: 'Secret', visibility: 'private' },
    });
    const allowed = async (path: string, token: string) =>
      ((await bench.json('GET', path, { token })) as Json).allowed as boolean;
    const orgAllowed = (permission: string) => `/v0/organizations/${org.slug}/allowed/${permission}`;
    expect(await allowed(orgAllowed('manage'), bench.muriel)).toBe(true);
    expect(await allowed(orgAllowed('delete_role'), bench.eustace)).toBe(true);
    await accept(await invite(org.slug, 'courage@nowhere.com', 'member'), bench.courage);
    expect(await allowed(orgAllowed('view'), bench.courage)).toBe(true);
    expect(await allowed(orgAllowed('view_role'), bench.courage)).toBe(true);
    expect(await allowed(orgAllowed('create_role'), bench.courage)).toBe(false);
    expect(await allowed(orgAllowed('create'), bench.courage)).toBe(false);

    expect(await allowed('/v0/projects/the-computer/allowed/manage', bench.muriel)).toBe(true);
    expect(await allowed('/v0/projects/the-computer/allowed/view', bench.courage)).toBe(true);
    expect(await allowed('/v0/projects/the-computer/allowed/create', bench.courage)).toBe(false);
    expect((await bench.call('GET', `/v0/projects/${secret.slug}/allowed/view`, { token: bench.courage })).status).toBe(
      404,
    );
    expect(await allowed(`/v0/projects/${secret.uuid}/allowed/edit_role`, bench.muriel)).toBe(true);

    expect((await bench.call('GET', orgAllowed('own'), { token: bench.muriel })).status).toBe(400);
    expect((await bench.call('GET', '/v0/projects/the-computer/allowed/VIEW', { token: bench.muriel })).status).toBe(
      400,
    );
    expect((await bench.call('GET', '/v0/projects/the-computer/allowed/view')).status).toBe(400);
    const key = await bench.json('POST', '/v0/projects/the-computer/keys', {
      token: bench.muriel,
      body: { name: 'k' },
    });
    expect((await bench.call('GET', '/v0/projects/the-computer/allowed/view', { token: key.key })).status).toBe(403);
    expect((await bench.call('GET', '/v0/projects/nothing/allowed/view', { token: bench.muriel })).status).toBe(404);
  });

  it('claims an organisation an anonymous run made, and shows when it was claimed', async () => {
    const { org, project } = await seedProject(bench);
    expect(org.claimed).toBe(org.created);
    expect(project.claimed).toBe(org.created);

    const run = await bench.json('POST', '/v0/run', {
      body: {
        start_time: at(0),
        end_time: at(1),
        results: [bmf({ fib: { latency: 1 } })],
        context: { 'bencher.dev/v0/repo/name': 'orphan' },
      },
    });
    expect(run.project.claimed).toBeNull();
    const orphan = run.project.organization as string;
    const claim = `/v0/organizations/${orphan}/claim`;
    expect((await bench.call('POST', claim, { body: {} })).status).toBe(400);
    for (const body of [undefined, { empty: 1 }, { claim: true }]) {
      expect((await bench.call('POST', claim, { token: bench.courage, body })).status).toBe(400);
    }
    const claimed = await bench.json('POST', claim, { token: bench.courage, body: { empty: null } });
    expect(claimed.uuid).toBe(orphan);
    expect(Date.parse(claimed.claimed)).toBeGreaterThanOrEqual(Date.parse(claimed.created));
    expect((await bench.json('GET', `/v0/projects/${run.project.slug}`)).claimed).toBe(claimed.claimed);
    expect(
      ((await bench.json('GET', `/v0/organizations/${orphan}/members`, { token: bench.courage })) as Json[]).map(
        (m) => [m.slug, m.role],
      ),
    ).toEqual([['courage', 'leader']]);
    expect((await bench.call('POST', claim, { token: bench.courage, body: {} })).status).toBe(409);
    expect((await bench.call('POST', claim, { token: bench.muriel, body: {} })).status).toBe(404);
    expect(
      (await bench.call('POST', `/v0/organizations/${org.slug}/claim`, { token: bench.muriel, body: {} })).status,
    ).toBe(409);
    expect(
      (await bench.call('POST', '/v0/organizations/nowhere/claim', { token: bench.muriel, body: {} })).status,
    ).toBe(404);
  });

  it("reports the organisation's metrics of the last 30 days", async () => {
    const { org } = await seedProject(bench);
    for (const second of [0, 1]) {
      await bench.json('POST', '/v0/projects/the-computer/reports', {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'ci',
          start_time: at(second),
          end_time: at(second + 1),
          results: [bmf({ fib: { latency: 1, throughput: 2 }, sort: { latency: 3 } })],
        },
      });
    }
    const usage = await bench.json('GET', `/v0/organizations/${org.slug}/usage`, { token: bench.muriel });
    expect(usage).toEqual({
      organization: org.uuid,
      kind: 'self_hosted_free',
      plan: null,
      license: null,
      start_time: expect.any(String),
      end_time: expect.any(String),
      metrics: 6,
      active_series: null,
      runner_minutes: 0,
    });
    expect(Date.parse(usage.end_time) - Date.parse(usage.start_time)).toBe(30 * 24 * 3600 * 1000);
    const other = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: 'Empty' } });
    expect((await bench.json('GET', `/v0/organizations/${other.slug}/usage`, { token: bench.eustace })).metrics).toBe(
      0,
    );
  });

  it('publishes the new routes in the generated spec', async () => {
    const spec = await bench.json('GET', '/v0/server/spec');
    for (const [path, method] of [
      ['/v0/organizations/{organization}/members', 'post'],
      ['/v0/organizations/{organization}/members/{user}', 'patch'],
      ['/v0/organizations/{organization}/claim', 'post'],
      ['/v0/organizations/{organization}/allowed/{permission}', 'get'],
      ['/v0/organizations/{organization}/usage', 'get'],
      ['/v0/projects/{project}/allowed/{permission}', 'get'],
      ['/v0/auth/accept', 'post'],
    ]) {
      expect(spec.paths[path as string]?.[method as string], `${method} ${path}`).toBeDefined();
    }
    expect(Object.keys(spec.paths['/v0/auth/accept'].post.responses)).toContain('202');
    expect(Object.keys(spec.paths['/v0/organizations/{organization}/claim'].post.responses)).toContain('201');
  });
});
