import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpFields } from '../src/config/fields.js';
import { clientKey, isAddressOrRange, trustedProxyCheck } from '../src/http/client-address.js';

describe('clientKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:127.0.0.2', '127.0.0.2'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe('trustedProxies entries', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.0.0.0/8', true],
    ['::1', true],
    ['fd00::/8', true],
    ['10.0.0.0/33', false],
    ['10.0.0.0/', false],
    ['10.0.0.0/8/8', false],
    ['loopback', false],
    ['proxy.example.org', false],
    ['', false],
  ])('%s is an address or a range: %s', (entry, valid) => {
    expect(isAddressOrRange(entry)).toBe(valid);
  });

  it.each([
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.1'], '::ffff:127.0.0.1', true],
    [['127.0.0.1'], '127.0.0.2', false],
    [['10.0.0.0/8'], '10.200.3.4', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['fd00::/8'], 'fd12::1', true],
    [['fd00::/8'], 'fe80::1', false],
    [[], '127.0.0.1', false],
  ])('%j trusts %s: %s', (entries, address, trusted) => {
    expect(trustedProxyCheck(entries)(address)).toBe(trusted);
  });
});

describe('http config', () => {
  const http = z.object(httpFields(0));

  it('caps 256 connections per client address by default', () => {
    expect(http.parse({}).maxConnectionsPerAddress).toBe(256);
  });

  it('refuses a trustedProxies entry that is not an address or a CIDR range', () => {
    const result = http.safeParse({ trustedProxies: ['10.0.0.0/8', 'loopback'] });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['trustedProxies', 1],
        message: 'must be an IP address or a CIDR range such as 10.0.0.0/8',
      }),
    ]);
  });
});
