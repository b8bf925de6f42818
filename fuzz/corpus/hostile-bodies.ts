// The "What held" list of the findings, as bodies for any JSON endpoint: each must get a clean 4xx (or the
// endpoint's reference-compatible answer) in the service's own shape.

import type { Service } from '../../bench/lib/atrium-serve.js';
import type { Case, Expect, Request, Secrets } from '../case.js';

export const deep = (depth: number, open = '[', close = ']', inner = '0') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

let fifty: Buffer | undefined;
/** 50 MB of JSON (one long string), made once. */
export const fiftyMegabytes = () => {
  fifty ??= Buffer.from(`{"x":"${'a'.repeat(50 * 1024 * 1024)}"}`);
  return fifty;
};

export interface Endpoint {
  service: Service;
  method: string;
  path: string;
  headers: (secrets: Secrets, sentinel: string) => Record<string, string>;
  /** For bodies that are not JSON. */
  badJson: Expect;
  /** For JSON that is not an object. */
  notObject: Expect;
  /** For objects without any of the endpoint's required fields. */
  badShape: Expect;
}

export function hostileBodies(endpoint: Endpoint): Case[] {
  const json = { 'content-type': 'application/json' };
  const body = (name: string, expect: Expect, make: (sentinel: string) => string | Buffer, type = json): Case => ({
    name: `held: ${name} to ${endpoint.method} ${endpoint.path}`,
    service: endpoint.service,
    request: (secrets, sentinel): Request => ({
      method: endpoint.method,
      path: endpoint.path,
      headers: { ...endpoint.headers(secrets, sentinel), ...type },
      body: make(sentinel),
    }),
    expect,
    parserOnly: true,
  });
  const { badJson, notObject, badShape } = endpoint;
  return [
    body('malformed JSON', badJson, (s) => `{"x": "${s}",,}`),
    body('truncated JSON', badJson, (s) => `{"x": "${s}`),
    body('NaN and Infinity literals', badJson, (s) => `{"x": "${s}", "n": NaN, "i": -Infinity}`),
    body('invalid UTF-8', badJson, (s) =>
      Buffer.concat([Buffer.from(`{"x": "${s}`), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    ),
    body('100k-deep nesting', badJson, () => deep(100_000)),
    body('100k-deep object nesting', badJson, () => deep(100_000, '{"a":', '}')),
    body('top-level array', notObject, (s) => `["${s}", 1]`),
    body('top-level string', notObject, (s) => `"${s}"`),
    body('top-level null', notObject, () => 'null'),
    body('lone surrogates', badShape, (s) => `{"x": "${s}\\ud800", "\\udfff": 1}`),
    body('NUL characters', badShape, (s) => `{"x": "${s}\\u0000", "\\u0000": "\\u0000"}`),
    body(
      '__proto__ and constructor keys',
      badShape,
      (s) => `{"__proto__": {"admin": true, "x": "${s}"}, "constructor": {"prototype": {"polluted": 1}}}`,
    ),
    body('duplicate keys', badShape, (s) => `{"x": 1, "x": "${s}", "x": [] }`),
    body(
      'huge and non-integer numbers',
      badShape,
      (s) => `{"x": "${s}", "a": 1e400, "b": -1e400, "c": 123456789012345678901234567890, "d": 0.5e-400}`,
    ),
    body(
      'a JSON body sent as text/plain',
      { status: '4xx', ...(endpoint.service === 'provenance' ? badJson : {}) },
      (s) => `{"x": "${s}"}`,
      { 'content-type': 'text/plain' },
    ),
    body('a form body', { status: '4xx', ...(endpoint.service === 'provenance' ? badJson : {}) }, (s) => `x=${s}&y=2`, {
      'content-type': 'application/x-www-form-urlencoded',
    }),
    body('a 50 MB body', { status: 413 }, () => fiftyMegabytes()),
  ];
}
