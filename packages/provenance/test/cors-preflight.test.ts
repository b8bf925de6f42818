import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';

const METHODS = 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT';

// What flask-cors (its defaults, as AiiDA's REST server uses it) answers to each preflight.
const CASES: [string, Record<string, string>, Record<string, string | null>][] = [
  [
    'the explorer QueryBuilder POST: requested header echoed',
    { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    { 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': METHODS },
  ],
  [
    'several requested headers: trimmed and sorted (upper case first), each echoed',
    { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-b, content-type,X-A' },
    { 'access-control-allow-headers': 'X-A, content-type, x-b', 'access-control-allow-methods': METHODS },
  ],
  [
    'no requested headers: no allow-headers',
    { 'access-control-request-method': 'GET' },
    { 'access-control-allow-headers': null, 'access-control-allow-methods': METHODS },
  ],
  [
    'a lower-case request method is upper-cased',
    { 'access-control-request-method': 'post', 'access-control-request-headers': 'authorization' },
    { 'access-control-allow-headers': 'authorization', 'access-control-allow-methods': METHODS },
  ],
  [
    'a method outside flask-cors methods: no preflight headers',
    { 'access-control-request-method': 'PROPFIND', 'access-control-request-headers': 'content-type' },
    { 'access-control-allow-headers': null, 'access-control-allow-methods': null },
  ],
  [
    'a plain OPTIONS (no request method): no preflight headers',
    { 'access-control-request-headers': 'content-type' },
    { 'access-control-allow-headers': null, 'access-control-allow-methods': null },
  ],
];

describe('CORS preflight answered as flask-cors does', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await serveArchive(SIMPLE, 'sqlite');
  });
  afterAll(() => api.stop());

  it.each(CASES)('%s', async (_name, requestHeaders, expected) => {
    const response = await fetch(`${api.base}/api/v4/querybuilder/`, {
      method: 'OPTIONS',
      headers: { origin: 'http://explorer.example', ...requestHeaders },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe('http://explorer.example');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('access-control-max-age')).toBeNull();
    for (const [name, value] of Object.entries(expected))
      expect([name, response.headers.get(name)]).toEqual([name, value]);
  });
});
