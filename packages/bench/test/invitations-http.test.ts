import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, outboxOf, seedProject, startBench, tokenFor } from './harness.js';

const COURAGE = 'courage@nowhere.com';

/** The invite code of the newest message in the outbox. */
async function lastInvite(bench: Bench): Promise<string> {
  const [message] = await outboxOf(bench, 1);
  const code = /^Invite code: (\S+)$/m.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error('no invitation in the outbox');
  return code;
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());

describeEachDialect('bench invitations expire, work once and die with the membership, over HTTP', ({ url }) => {
  let bench: Bench;
  let org: Json;
  let members: string;
  beforeEach(async () => {
    bench = await startBench(url());
    ({ org } = await seedProject(bench, 'private'));
    members = `/v0/organizations/${org.slug}/members`;
  });
  afterEach(() => bench.close());

  const invite = async (email: string, role: string) => {
    await bench.json('POST', members, { token: bench.muriel, body: { email, role }, status: 202 });
    return lastInvite(bench);
  };
  const accept = (code: string, token = bench.courage) =>
    bench.call('POST', '/v0/auth/accept', { token, body: { invite: code } });
  const refusal = async (response: Response) => ({
    status: response.status,
    message: ((await response.json()) as Json).message,
  });
  const roleOfCourage = async () => {
    const response = await bench.call('GET', `${members}/courage`, { token: bench.muriel });
    return response.status === 200 ? ((await response.json()) as Json).role : null;
  };
  const pending = async () =>
    (await bench.json('GET', `/v0/organizations/${org.slug}/invitations`, { token: bench.muriel })) as Json[];

  it('an accepted invitation does not bring back a member who was demoted, left or was removed (H1)', async () => {
    const code = await invite(COURAGE, 'leader');
    expect((await accept(code)).status).toBe(202);
    expect((await accept(code)).status).toBe(409);
    expect(await roleOfCourage()).toBe('leader');

    await bench.json('PATCH', `${members}/courage`, { token: bench.muriel, body: { role: 'member' } });
    expect((await bench.call('DELETE', `${members}/courage`, { token: bench.courage })).status).toBe(204);
    expect(await refusal(await accept(code))).toEqual({
      status: 400,
      message: 'Failed to validate the invitation: it was already used.',
    });
    expect(await roleOfCourage()).toBeNull();

    const again = await invite(COURAGE, 'member');
    expect((await accept(again)).status).toBe(202);
    expect((await bench.call('DELETE', `${members}/courage`, { token: bench.muriel })).status).toBe(204);
    for (const old of [code, again]) expect((await accept(old)).status).toBe(400);
    expect(await roleOfCourage()).toBeNull();
    expect((await bench.call('GET', '/v0/projects/the-computer', { token: bench.courage })).status).toBe(404);
  });

  it('a newer invitation replaces an older one; a role change or removal voids pending invitations to that address', async () => {
    const asLeader = await invite(COURAGE, 'leader');
    const asMember = await invite(COURAGE, 'member');
    expect((await pending()).map((i) => [i.email, i.role])).toEqual([[COURAGE, 'member']]);
    expect(await refusal(await accept(asLeader))).toEqual({
      status: 400,
      message: 'Failed to validate the invitation: it was revoked.',
    });
    expect((await accept(asMember)).status).toBe(202);
    expect(await pending()).toEqual([]);

    // An invitation to a member's address (in other letter case, so not refused as a member's) stays pending while
    // they are a member, and dies when they are removed...
    const beforeRemoval = await invite('Courage@Nowhere.com', 'leader');
    expect((await accept(beforeRemoval)).status).toBe(409);
    expect((await bench.call('DELETE', `${members}/courage`, { token: bench.muriel })).status).toBe(204);
    expect((await accept(beforeRemoval)).status).toBe(400);
    expect(await roleOfCourage()).toBeNull();

    // ...or when their role changes.
    expect((await accept(await invite(COURAGE, 'member'))).status).toBe(202);
    const beforeRoleChange = await invite('COURAGE@nowhere.com', 'leader');
    await bench.json('PATCH', `${members}/courage`, { token: bench.muriel, body: { role: 'leader' } });
    expect((await bench.call('DELETE', `${members}/courage`, { token: bench.courage })).status).toBe(204);
    expect(await refusal(await accept(beforeRoleChange))).toEqual({
      status: 400,
      message: 'Failed to validate the invitation: it was revoked.',
    });
    expect(await roleOfCourage()).toBeNull();
  });

  it('lists pending invitations to those who may invite, and revokes one', async () => {
    const code = await invite(COURAGE, 'leader');
    const [listed] = await pending();
    expect(listed).toEqual({
      uuid: claimsOf(code).jti,
      organization: org.uuid,
      email: COURAGE,
      role: 'leader',
      inviter: { uuid: expect.any(String), name: 'Muriel Bagge', slug: 'muriel-bagge' },
      created: expect.any(String),
      expiration: expect.any(String),
    });
    expect(Date.parse(listed.expiration) - Date.parse(listed.created)).toBe(7 * 86_400_000);
    const invitations = `/v0/organizations/${org.slug}/invitations`;
    expect((await bench.call('GET', invitations, { token: bench.courage })).status).toBe(404);
    expect((await bench.call('DELETE', `${invitations}/${listed.uuid}`, { token: bench.courage })).status).toBe(404);

    expect((await bench.call('DELETE', `${invitations}/${listed.uuid}`, { token: bench.muriel })).status).toBe(204);
    expect((await bench.call('DELETE', `${invitations}/${listed.uuid}`, { token: bench.muriel })).status).toBe(404);
    expect(await pending()).toEqual([]);
    expect(await refusal(await accept(code))).toEqual({
      status: 400,
      message: 'Failed to validate the invitation: it was revoked.',
    });

    // A member without create_role sees the organisation but not its invitations.
    expect((await accept(await invite(COURAGE, 'member'))).status).toBe(202);
    expect((await bench.call('GET', invitations, { token: bench.courage })).status).toBe(403);
    const spec = await bench.json('GET', '/v0/server/spec');
    expect(spec.paths['/v0/organizations/{organization}/invitations'].get).toBeDefined();
    expect(spec.paths['/v0/organizations/{organization}/invitations/{invitation}'].delete).toBeDefined();
  });

  it('an invitation lasts 7 days and works once, however many accept it at once or while it is revoked', async () => {
    const code = await invite(COURAGE, 'member');
    const claims = claimsOf(code);
    expect(claims.exp - claims.iat).toBe(7 * 86_400);
    expect(claims).toMatchObject({ aud: 'invite', sub: COURAGE, jti: expect.any(String), org: { uuid: org.uuid } });
    const [message] = await outboxOf(bench, 1);
    expect(message?.body).toContain(`The invitation works once, until ${new Date(claims.exp * 1000).toISOString()}.`);

    const answers = await Promise.all(Array.from({ length: 6 }, () => accept(code)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);

    // Accepted and revoked at once: exactly one of the two happens.
    const raced = await invite('eustace.bagge@nowhere.com', 'leader');
    const [accepted, revoked] = await Promise.all([
      accept(raced, bench.eustace),
      bench.call('DELETE', `/v0/organizations/${org.slug}/invitations/${claimsOf(raced).jti}`, { token: bench.muriel }),
    ]);
    expect([
      [202, 404],
      [400, 204],
    ]).toContainEqual([accepted.status, revoked.status]);
    const eustace = await bench.call('GET', `${members}/eustace-bagge`, { token: bench.muriel });
    expect(eustace.status).toBe(accepted.status === 202 ? 200 : 404);
  });

  it('sign-up and log-in use an invitation up too', async () => {
    /** The sign-up's refusal, else the answer to its confirmation (which creates the account). */
    const signUp = async (email: string, invitation?: string) => {
      const body = { name: 'Newcomer', email, i_agree: true, ...(invitation ? { invite: invitation } : {}) };
      const asked = await bench.call('POST', '/v0/auth/signup', { body });
      if (asked.status !== 202) return asked;
      const [message] = await outboxOf(bench, 1);
      const token = /^Code: (\S+)$/m.exec(message?.body ?? '')?.[1];
      return bench.call('POST', '/v0/auth/confirm', { body: { token } });
    };
    const emails = async () =>
      ((await bench.json('GET', members, { token: bench.muriel })) as Json[]).map((m) => m.email).sort();
    const forNewcomer = await invite('newcomer@nowhere.com', 'member');
    const [mailed] = await outboxOf(bench, 1);
    const link = new URL(/^Create your account and accept at (\S+)$/m.exec(mailed?.body ?? '')?.[1] as string);
    expect(link.pathname).toBe('/auth/signup');
    expect(Object.fromEntries(link.searchParams)).toEqual({ invite: forNewcomer, email: 'newcomer@nowhere.com' });
    // Log-in with it says there is no account yet (and mails nothing) instead of answering as if it had mailed.
    const noAccount = await bench.call('POST', '/v0/auth/login', {
      body: { email: 'newcomer@nowhere.com', invite: forNewcomer },
    });
    expect(await refusal(noAccount)).toEqual({
      status: 404,
      message:
        'No account has this email address yet: sign up with this invitation instead, and you join the organization.',
    });
    expect((await outboxOf(bench, 1))[0]?.body).toBe(mailed?.body);
    expect((await signUp('newcomer@nowhere.com', forNewcomer)).status).toBe(200);
    expect(await emails()).toEqual(['muriel.bagge@nowhere.com', 'newcomer@nowhere.com']);
    const newcomer = (await bench.json('GET', members, { token: bench.muriel })).find(
      (m: Json) => m.email === 'newcomer@nowhere.com',
    );
    expect(newcomer.role).toBe('member');
    const organizations = await bench.json('GET', '/v0/organizations', { token: tokenFor('newcomer@nowhere.com') });
    expect(organizations.map((o: Json) => o.slug)).toEqual([org.slug]);

    // A revoked invitation signs nobody up: no user is left behind, so a plain sign-up then works.
    const revoked = await invite('late@nowhere.com', 'leader');
    await bench.json('DELETE', `/v0/organizations/${org.slug}/invitations/${claimsOf(revoked).jti}`, {
      token: bench.muriel,
      status: 204,
    });
    expect(await refusal(await signUp('late@nowhere.com', revoked))).toEqual({
      status: 400,
      message: 'Failed to validate the invitation: it was revoked.',
    });
    expect((await signUp('late@nowhere.com')).status).toBe(200);
    expect(await emails()).toEqual(['muriel.bagge@nowhere.com', 'newcomer@nowhere.com']);

    // Log-in with an invitation accepts it; after a removal the same link no longer does.
    const forCourage = await invite(COURAGE, 'leader');
    const login = () => bench.call('POST', '/v0/auth/login', { body: { email: COURAGE, invite: forCourage } });
    expect((await login()).status).toBe(202);
    expect(await roleOfCourage()).toBe('leader');
    expect((await login()).status).toBe(202);
    expect((await bench.call('DELETE', `${members}/courage`, { token: bench.muriel })).status).toBe(204);
    expect((await login()).status).toBe(400);
    expect(await roleOfCourage()).toBeNull();
  });
});

describeEachDialect('bench invitations with a short auth.inviteTtlSeconds', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { auth: { inviteTtlSeconds: 1 } });
  });
  afterEach(() => bench.close());

  it('an invitation expires after auth.inviteTtlSeconds', async () => {
    const { org } = await seedProject(bench, 'private');
    const members = `/v0/organizations/${org.slug}/members`;
    await bench.json('POST', members, { token: bench.muriel, body: { email: COURAGE, role: 'leader' }, status: 202 });
    const code = await lastInvite(bench);
    const { exp } = claimsOf(code);
    await expect.poll(() => Date.now() / 1000 > exp + 1, { timeout: 5_000, interval: 100 }).toBe(true);
    const refused = await bench.call('POST', '/v0/auth/accept', { token: bench.courage, body: { invite: code } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).message).toBe('Failed to validate the invitation: expired.');
    expect(await bench.json('GET', `/v0/organizations/${org.slug}/invitations`, { token: bench.muriel })).toEqual([]);
    expect((await bench.call('GET', `${members}/courage`, { token: bench.muriel })).status).toBe(404);
  });
});
