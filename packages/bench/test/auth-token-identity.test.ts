import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeCanonicalBase64url } from '../src/auth/jwt.js';
import { mintJwt } from '../src/index.js';
import { type Bench, ISSUER, type Json, outboxOf, SECRET, startBench } from './harness.js';
import { respellings } from './respellings.js';

describe('canonical base64url', () => {
  it.each([
    ['', ''],
    ['QQ', 'A'],
    ['QUI', 'AB'],
    ['QUJD', 'ABC'],
    ['-_8', '\xfb\xff'],
  ])('reads %j', (part, text) => {
    expect(decodeCanonicalBase64url(part)?.toString('latin1')).toBe(text);
  });

  it.each([
    ['QQ=', 'padding'],
    ['QQ==', 'padding'],
    ['QR', 'a bit set past the data'],
    ['QUJ', 'a bit set past the data'],
    ['+/8', 'the standard alphabet'],
    ['QU!I', 'a stray character'],
    ['QU I', 'a space'],
    ['Q', 'an impossible length'],
    ['QUJDR', 'an impossible length'],
  ])('refuses %j (%s)', (part) => {
    expect(decodeCanonicalBase64url(part)).toBeUndefined();
  });
});

describeEachDialect('bench single-use tokens by identity, not by spelling, over HTTP', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url());
  });
  afterEach(() => bench.close());

  const confirm = (token: string) => bench.call('POST', '/v0/auth/confirm', { body: { token } });

  async function loginCode(email: string): Promise<string> {
    expect((await bench.call('POST', '/v0/auth/login', { body: { email } })).status).toBe(202);
    let code: string | undefined;
    await expect
      .poll(async () => {
        const message = (await outboxOf(bench, 5)).find((m) => m.recipient === email);
        code = message && /^Code: (\S+)$/m.exec(message.body)?.[1];
        return code !== undefined;
      })
      .toBe(true);
    return code as string;
  }

  it('refuses every other spelling of a confirmation token, before and after its one use', async () => {
    const token = await loginCode('courage@nowhere.com');
    const variants = respellings(token);
    expect(variants.length).toBeGreaterThanOrEqual(4);
    for (const [how, respelled] of variants) {
      const refused = await confirm(respelled);
      expect(refused.status, how).toBe(401);
      expect(((await refused.json()) as Json).message, how).toContain('not a JSON Web Token');
    }
    expect((await confirm(token)).status).toBe(200);
    for (const [how, respelled] of [['as sent', token] as [string, string], ...variants]) {
      expect((await confirm(respelled)).status, how).toBe(401);
    }
  });

  it('refuses a confirmation token without an identity (jti), which could not be used only once', async () => {
    const now = Math.floor(Date.now() / 1000);
    const anonymous = mintJwt(
      { aud: 'auth', iat: now, exp: now + 600, iss: ISSUER, sub: 'courage@nowhere.com' },
      SECRET,
    );
    const refused = await confirm(anonymous);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as Json).message).toContain('missing token id');
  });

  it('refuses other spellings of a session or API token on every route', async () => {
    for (const path of ['/v0/users/courage', '/v0/organizations']) {
      expect((await bench.call('GET', path, { token: bench.courage })).status).toBe(200);
      for (const [how, respelled] of respellings(bench.courage)) {
        expect((await bench.call('GET', path, { token: respelled })).status, `${how} on ${path}`).toBe(401);
      }
    }
  });
});
