import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, outboxOf, startBench, tokenFor } from './harness.js';

const CONSOLE = 'http://console.test';
const COURAGE = 'courage@nowhere.com';
const VICTIM = 'victim@example.org';

describeEachDialect('bench e-mail changes wait for the new address to confirm, over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { consoleUrl: CONSOLE });
  });
  afterEach(() => bench.close());

  const changeEmail = (email: string, token = bench.courage, user = 'courage') =>
    bench.json('PATCH', `/v0/users/${user}`, { token, body: { email } });
  /** The newest message to `to` (log-in links are stored in the background, hence the wait). */
  const mailTo = async (to: string) => {
    let found: { subject: string; body: string } | undefined;
    await expect
      .poll(async () => {
        found = (await outboxOf(bench, 20)).find((m) => m.recipient === to);
        return found !== undefined;
      })
      .toBe(true);
    return found as { subject: string; body: string };
  };
  const codeIn = (body: string) => /^Code: (\S+)$/m.exec(body)?.[1] as string;
  const confirmChange = (token: string, session = bench.courage, user = 'courage') =>
    bench.call('POST', `/v0/users/${user}/email/confirm`, { token: session, body: { token } });

  it("an unconfirmed change does not take someone else's address: their log-in and sign-up stay theirs (M2)", async () => {
    const answer = await changeEmail(VICTIM);
    expect(answer).toMatchObject({ slug: 'courage', email: COURAGE });
    expect((await bench.json('GET', '/v0/users/courage', { token: bench.courage })).email).toBe(COURAGE);

    // The victim's log-in link does not lead into Courage's account: there is no account with that address yet.
    expect((await bench.call('POST', '/v0/auth/login', { body: { email: VICTIM } })).status).toBe(202);
    expect(
      (await bench.call('POST', '/v0/auth/signup', { body: { name: 'Victim', email: VICTIM, i_agree: true } })).status,
    ).toBe(202);
    const session = await bench.call('POST', '/v0/auth/confirm', {
      body: { token: codeIn((await mailTo(VICTIM)).body) },
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as Json).user).toMatchObject({ name: 'Victim', email: VICTIM });
    expect((await bench.call('GET', '/v0/users/courage', { token: tokenFor(VICTIM) })).status).toBe(404);

    // Courage's confirmation now fails: the address belongs to the victim.
    const [confirmation] = (await outboxOf(bench, 20)).filter((m) => m.subject === 'Confirm your new Bench email');
    const refused = await confirmChange(codeIn(confirmation?.body ?? ''));
    expect(refused.status).toBe(409);
    expect((await bench.json('GET', '/v0/users/courage', { token: bench.courage })).email).toBe(COURAGE);
  });

  it('mails the new address a link and the old one a notice; confirming switches the address and the session', async () => {
    await changeEmail('courage.the.dog@nowhere.com');
    const pending = await bench.json('GET', '/v0/users/courage/email/pending', { token: bench.courage });
    expect(pending).toEqual({
      email: 'courage.the.dog@nowhere.com',
      created: expect.any(String),
      expiration: expect.any(String),
    });
    expect(Date.parse(pending.expiration) - Date.parse(pending.created)).toBe(1800_000);

    const confirmation = await mailTo('courage.the.dog@nowhere.com');
    expect(confirmation.subject).toBe('Confirm your new Bench email');
    const token = codeIn(confirmation.body);
    expect(confirmation.body).toContain(`Confirm: ${CONSOLE}/console/users/courage/settings?confirm_email=${token}`);
    const notice = await mailTo(COURAGE);
    expect(notice.subject).toBe('Your Bench email is about to change');
    expect(notice.body).toContain('from courage@nowhere.com to courage.the.dog@nowhere.com');
    expect(notice.body).not.toContain(token);
    expect(JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString())).toMatchObject({
      aud: 'email',
      sub: 'courage.the.dog@nowhere.com',
    });

    // Only Courage, signed in, confirms; the token is no session and no log-in link.
    expect((await bench.call('GET', '/v0/users/courage', { token })).status).toBe(401);
    expect((await bench.call('POST', '/v0/auth/confirm', { body: { token } })).status).toBe(401);
    expect((await confirmChange(token, bench.muriel)).status).toBe(404);
    const mismatched = await bench.call('POST', '/v0/users/muriel-bagge/email/confirm', {
      token: bench.muriel,
      body: { token },
    });
    expect(mismatched.status).toBe(400);
    expect((await bench.call('POST', '/v0/users/courage/email/confirm', { body: { token } })).status).toBe(400);

    const confirmed = await confirmChange(token);
    expect(confirmed.status).toBe(200);
    const session = (await confirmed.json()) as Json;
    expect(Object.keys(session).sort()).toEqual(['creation', 'expiration', 'token', 'user']);
    expect(session.user).toMatchObject({ slug: 'courage', email: 'courage.the.dog@nowhere.com' });
    expect((await bench.json('GET', '/v0/users/courage', { token: session.token })).email).toBe(
      'courage.the.dog@nowhere.com',
    );
    expect((await confirmChange(token, session.token)).status).toBe(400);
    expect((await bench.call('GET', '/v0/users/courage/email/pending', { token: session.token })).status).toBe(404);
  });

  it('a new request replaces the pending one, the current address cancels it, and foreign tokens are refused', async () => {
    await changeEmail('first@nowhere.com');
    const first = codeIn((await mailTo('first@nowhere.com')).body);
    await changeEmail('second@nowhere.com');
    const second = codeIn((await mailTo('second@nowhere.com')).body);
    expect((await confirmChange(first)).status).toBe(400);
    expect((await bench.json('GET', '/v0/users/courage/email/pending', { token: bench.courage })).email).toBe(
      'second@nowhere.com',
    );
    await changeEmail(COURAGE);
    expect((await bench.call('GET', '/v0/users/courage/email/pending', { token: bench.courage })).status).toBe(404);
    expect((await confirmChange(second)).status).toBe(400);

    for (const bad of [bench.courage, tokenFor('second@nowhere.com', 'email'), 'x.y.z', `${second}x`]) {
      const refused = await confirmChange(bad);
      expect(refused.status).toBe(400);
      // Not "JSON Web Token": the console would take that for an expired session and log the user out.
      expect(((await refused.json()) as Json).message).toMatch(/^Failed to confirm the new email: [^J]*$/);
    }
    expect(
      (
        await bench.call('PATCH', '/v0/users/courage', {
          token: bench.courage,
          body: { slug: 'courage-the-dog', email: 'muriel.bagge@nowhere.com' },
        })
      ).status,
    ).toBe(409);
    // The refused PATCH changed nothing, not even its other fields.
    expect(await bench.json('GET', '/v0/users/courage', { token: bench.courage })).toMatchObject({
      slug: 'courage',
      email: COURAGE,
    });
  });
});
