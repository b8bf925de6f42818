import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../src/http/canonical-url.js';

describe('canonicalUrl', () => {
  it.each([
    ['/healthz', '/healthz'],
    ['/', '/'],
    ['/v1/models?after=%2F..%2F&x=//y', '/v1/models?after=%2F..%2F&x=//y'],
    ['//healthz', '/healthz'],
    ['///v1//models', '/v1/models'],
    ['/%68ealthz', '/healthz'],
    ['/%761/chat/completions', '/v1/chat/completions'],
    ['/%7e%2D%5f%2e', '/~-_.'],
    ['/a/../healthz', '/healthz'],
    ['/a/./b/../../healthz', '/healthz'],
    ['/../../healthz', '/healthz'],
    ['/a/%2e%2e/healthz', '/healthz'],
    ['/a/b/..', '/a/'],
    ['/a/.', '/a/'],
    ['/..', '/'],
    ['/a//', '/a/'],
    ['/.well-known/x', '/.well-known/x'],
    ['/a/..b/c', '/a/..b/c'],
    ['/files/a%2Fb', '/files/a%2Fb'],
    ['/files/a%2f..%2fb', '/files/a%2f..%2fb'],
    ['/x%00y', '/x%00y'],
    ['/v0/projects/%ff%fe', '/v0/projects/%ff%fe'],
    ['/bad%zz/%4', '/bad%zz/%4'],
    ['/a%20b', '/a%20b'],
    ['//v1/models?q=//a/../b', '/v1/models?q=//a/../b'],
    ['*', '*'],
    ['http://example.com//x', 'http://example.com//x'],
  ])('%s -> %s', (url, expected) => {
    expect(canonicalUrl(url)).toBe(expected);
  });

  it('returns a canonical URL as the very same string', () => {
    const url = '/api/v4/nodes/page/2?orderby=-id';
    expect(canonicalUrl(url)).toBe(url);
  });

  it.each([
    ['escaped dots', `/${'%2e%2e/'.repeat(150_000)}x`],
    ['escaped letters', `/${'%41'.repeat(350_000)}`],
    ['slashes', '/'.repeat(1 << 20)],
    ['dot segments', `/${'./'.repeat(1 << 19)}`],
    ['parent segments', `/${'a/../'.repeat(200_000)}`],
  ])('handles 1 MiB of %s in linear time', (_name, url) => {
    const started = performance.now();
    canonicalUrl(url);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
