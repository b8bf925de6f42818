import { respellings } from '../../packages/bench/test/respellings.js';
import type { Case, Secrets } from '../case.js';
import { hostileBodies } from './hostile-bodies.js';

const json = { 'content-type': 'application/json' };
const bearer = (s: Secrets) => ({ authorization: `Bearer ${s.benchToken}`, ...json });
const time = '2026-11-24T10:00:00Z';

/** A `/v0/run` body for the `fuzz` project with one raw result line for `adapter`. */
const run = (adapter: string, result: string, project = 'fuzz') =>
  JSON.stringify({
    project,
    start_time: time,
    end_time: '2026-11-24T10:01:00Z',
    results: [result],
    settings: { adapter },
  });

/** A report of `benchmarks` benchmarks with one measure each (JSON adapter). */
function report(benchmarks: number, hash: string): string {
  const results: Record<string, { latency: { value: number } }> = {};
  for (let i = 0; i < benchmarks; i++) results[`fuzz::case_${i}`] = { latency: { value: 1000 + i } };
  return JSON.stringify({
    branch: 'main',
    testbed: 'fuzz',
    hash,
    start_time: time,
    end_time: time,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
  });
}

const MIB = 1024 * 1024;
const spaces = `a${' '.repeat(MIB)}x`;
const post = (path: string, headers: Record<string, string>, body: string) => ({ method: 'POST', path, headers, body });

export const benchCases: Case[] = [
  // C2: adapters answer in linear time on a 1 MiB line without a match.
  {
    name: 'C2 magic adapter, a 1 MiB line of spaces',
    service: 'bench',
    request: (s) => post('/v0/run', bearer(s), run('magic', spaces)),
    expect: { status: 400 },
  },
  {
    name: 'C2 rust_criterion, a 1 MiB line of spaces',
    service: 'bench',
    request: (s) => post('/v0/run', bearer(s), run('rust_criterion', spaces)),
    expect: { status: 400 },
  },
  {
    name: 'C2 cpp_catch2, a 1 MiB line of spaces',
    service: 'bench',
    request: (s) => post('/v0/run', bearer(s), run('cpp_catch2', spaces)),
    expect: { status: 400 },
  },
  {
    name: 'C2 rust_criterion, a 1 MiB line of time: fragments',
    service: 'bench',
    request: (s) => post('/v0/run', bearer(s), run('rust_criterion', `a ${'time: ['.repeat(MIB / 7)}`)),
    expect: { status: 400 },
  },
  {
    name: 'C2 magic, 1 MiB of tabs and digits',
    service: 'bench',
    request: (s) => post('/v0/run', bearer(s), run('magic', `x${'\t1'.repeat(MIB / 2)}`)),
    expect: { status: 400 },
  },
  // H3: ingestion linear in the report, with a documented maximum (10,000 benchmarks and metrics).
  {
    // Legitimate work at the documented maximum; it must not stall the process (the /healthz probe).
    name: 'H3 a report at the limit (10,000 benchmarks)',
    service: 'bench',
    request: (s) => post('/v0/projects/fuzz/reports', bearer(s), report(10_000, 'c'.repeat(40))),
    expect: { status: 201 },
    maxMs: 3000,
  },
  {
    name: 'H3 a 16,000-benchmark report',
    service: 'bench',
    request: (s) => post('/v0/projects/fuzz/reports', bearer(s), report(16_000, 'a'.repeat(40))),
    expect: { status: 400 },
  },
  {
    name: 'H3 a 16,000-benchmark anonymous run',
    service: 'bench',
    request: () =>
      post('/v0/run', json, run('json', JSON.parse(report(16_000, 'b'.repeat(40))).results[0], 'fuzz-anonymous')),
    expect: { status: [400, 429] },
  },
  // M5: alerts listed by index.
  {
    name: 'M5 alerts, per_page=1',
    service: 'bench',
    request: (s) => ({ method: 'GET', path: '/v0/projects/fuzz/alerts?per_page=1', headers: bearer(s) }),
    expect: { status: 200 },
    maxMs: 500,
  },
  // Markers: credentials, query strings and bodies never reach the log.
  {
    name: 'sentinel bearer token',
    service: 'bench',
    request: (_s, sentinel) => ({
      method: 'GET',
      path: '/v0/users/fuzz-runner',
      headers: { authorization: `Bearer ${sentinel}` },
    }),
    expect: { status: [400, 401] },
  },
  {
    name: 'sentinel JWT-looking token',
    service: 'bench',
    request: (_s, sentinel) => ({
      method: 'GET',
      path: '/v0/projects/fuzz/reports',
      headers: { authorization: `Bearer eyJhbGciOiJub25lIn0.${sentinel}.` },
    }),
    expect: { status: [400, 401] },
  },
  {
    name: 'sentinel query string',
    service: 'bench',
    request: (s, sentinel) => ({
      method: 'GET',
      path: `/v0/projects/fuzz/reports?branch=${sentinel}&per_page=abc${sentinel}`,
      headers: bearer(s),
    }),
    expect: { status: [200, 400] },
  },
  {
    name: 'sentinel cookie',
    service: 'bench',
    request: (s, sentinel) => ({
      method: 'GET',
      path: '/v0/projects/fuzz',
      headers: { ...bearer(s), cookie: `session=${sentinel}` },
    }),
    expect: { status: 200 },
  },
  {
    name: 'sentinel benchmark name in a bad report',
    service: 'bench',
    request: (s, sentinel) =>
      post(
        '/v0/projects/fuzz/reports',
        bearer(s),
        JSON.stringify({
          branch: sentinel,
          testbed: 'fuzz',
          start_time: 'not a time',
          end_time: time,
          results: [`{"${sentinel}": 1}`],
        }),
      ),
    expect: { status: 400 },
  },
  // M1: a JWT is read only as canonical base64url, so another spelling of a token is no token (each spelling was
  // accepted, and a used confirmation token again and again).
  ...['"=" appended', '"==" appended', "the last character's unused low bit flipped", 'a "!" inside the signature'].map(
    (how): Case => ({
      name: `M1 the bench JWT re-encoded: ${how}`,
      service: 'bench',
      request: (s) => ({
        method: 'GET',
        path: '/v0/users/fuzz-runner',
        headers: { authorization: `Bearer ${respellings(s.benchToken).find(([kind]) => kind === how)?.[1]}` },
      }),
      expect: { status: 401 },
    }),
  ),
  {
    name: 'M1 the bench JWT re-encoded, as a confirmation token',
    service: 'bench',
    request: (s) => post('/v0/auth/confirm', json, JSON.stringify({ token: `${s.benchToken}=` })),
    expect: { status: 401 },
  },
  // M3, L1: sign-up mails at most so much to one mailbox (+tags included) and creates nothing until confirmed; a
  // taken name gets another slug. The name carries the sentinel: it goes into the link, never into the log.
  ...[1, 2].map(
    (n): Case => ({
      name: `M3 sign-up for a +tagged mailbox (${n})`,
      service: 'bench',
      request: (_s, sentinel) =>
        post(
          '/v0/auth/signup',
          json,
          JSON.stringify({ name: `Fuzz ${sentinel}`, email: `fuzz+${n}@fuzz.local`, i_agree: true }),
        ),
      expect: { status: [202, 409, 429] },
    }),
  ),
  // L4: router and parser errors in the service's shape.
  {
    name: 'L4 a 501-character project slug',
    service: 'bench',
    request: () => ({ method: 'GET', path: `/v0/projects/${'a'.repeat(501)}` }),
    expect: { status: [404, 414] },
  },
  {
    name: 'L4 a 10,000-character path',
    service: 'bench',
    request: () => ({ method: 'GET', path: `/v0/projects/${'a'.repeat(10_000)}/reports` }),
    expect: { status: [404, 414] },
  },
  {
    name: 'L4 bad percent-encoding',
    service: 'bench',
    request: () => ({ method: 'GET', path: '/v0/projects/%ff%fe' }),
    expect: { status: [400, 404] },
  },
  ...hostileBodies({
    service: 'bench',
    method: 'POST',
    path: '/v0/projects/fuzz/reports',
    headers: bearer,
    badJson: { status: 400 },
    notObject: { status: 400 },
    badShape: { status: 400 },
  }),
];
