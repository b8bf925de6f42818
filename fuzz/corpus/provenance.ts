import type { Case, Expect } from '../case.js';
import { deep, hostileBodies } from './hostile-bodies.js';

const QB = '/api/v4/querybuilder';
const json = { 'content-type': 'application/json' };
const qb = (body: unknown) => ({ method: 'POST', path: QB, headers: json, body: JSON.stringify(body) });
const get = (path: string) => ({ method: 'GET', path });

/** A path of `joins` node entries, each joined to the previous one with `keyword`. */
const chain = (joins: number, keyword: string) => ({
  path: Array.from({ length: joins }, (_, i) => ({
    entity_type: 'node.Node.',
    orm_base: 'node',
    tag: `t${i}`,
    ...(i ? { joining_keyword: keyword, joining_value: `t${i - 1}` } : {}),
  })),
  project: { t0: ['id'] },
  limit: 10,
});
const nodes = { path: [{ entity_type: 'node.Node.', orm_base: 'node', tag: 'n' }], project: { n: ['id'] } };
const filtered = (filter: unknown, extra: Record<string, unknown> = {}) => ({
  ...nodes,
  filters: { n: filter },
  ...extra,
});

// The reference's deliberate 500s (AiiDA-compatible; packages/provenance/README.md and the reference):
// each listed with the message that marks it.
const aiida500 = (message: RegExp, ...others: Expect['status'][]): Expect => ({
  status: [500, ...others.flat()],
  message,
});
/**
 * What the reference answers (500) for a body that is not JSON, not an object, or has no `path`; which one
 * depends on how far a hostile body gets (invalid UTF-8 decodes to U+FFFD and parses, as in Flask).
 */
const REFERENCE_INPUT_ERROR =
  /^(400 Bad Request: The browser \(or proxy\) sent a request that this server could not understand\.|POSTed data MUST be a valid QueryBuilder\.as_dict\(\) dictionary\. .*|'path')$/s;
/** A query the service must bound: answered (or refused) in time, never `internal server error`. */
const bounded: Expect = { status: ['2xx', '4xx', 503, 504] };

export const provenanceCases: Case[] = [
  // C1: recursive joins must not freeze the process.
  {
    name: 'C1 QueryBuilder 10 x with_descendants',
    service: 'provenance',
    request: () => qb(chain(10, 'with_descendants')),
    expect: bounded,
  },
  {
    name: 'C1 QueryBuilder 12 x with_ancestors',
    service: 'provenance',
    request: () => qb(chain(12, 'with_ancestors')),
    expect: bounded,
  },
  {
    name: 'L1 QueryBuilder 60 x with_incoming',
    service: 'provenance',
    request: () => qb(chain(60, 'with_incoming')),
    expect: bounded,
  },
  // L1: bounds and sizes checked, in the reference's message shape.
  {
    name: 'L1 offset=99999999999999999999',
    service: 'provenance',
    request: () => get('/api/v4/nodes?offset=99999999999999999999'),
    expect: aiida500(/offset/i, 400),
  },
  {
    name: 'L1 offset=1e300',
    service: 'provenance',
    request: () => get('/api/v4/nodes?offset=1e300'),
    expect: aiida500(/Offset value must be an integer/, 400),
  },
  {
    name: 'L1 limit=1e300',
    service: 'provenance',
    request: () => get('/api/v4/nodes?limit=1e300'),
    expect: aiida500(/Limit value must be an integer/, 400),
  },
  {
    name: 'L1 QueryBuilder offset 1e20',
    service: 'provenance',
    request: () => qb({ ...nodes, offset: 1e20 }),
    expect: aiida500(/offset/i, 400),
  },
  {
    name: 'L1 QueryBuilder and nested 5,000 deep',
    service: 'provenance',
    request: () => ({
      ...qb(nodes),
      body: JSON.stringify(nodes).replace(/}$/, `,"filters":{"n":${deep(5000, '{"and":[', ']}', '{"id":{">":0}}')}}}`),
    }),
    expect: aiida500(/nest|deep|depth/i, 400),
  },
  {
    name: 'L1 QueryBuilder or of 20,000 terms',
    service: 'provenance',
    request: () => qb(filtered({ or: Array.from({ length: 20_000 }, (_, i) => ({ id: { '==': i } })) })),
    expect: aiida500(/terms|too many|large|limit/i, 400),
  },
  {
    name: 'L1 QueryBuilder in of 100,000 values',
    service: 'provenance',
    request: () => qb(filtered({ id: { in: Array.from({ length: 100_000 }, (_, i) => i) } })),
    expect: aiida500(/values|too many|large|limit/i, 400),
  },
  {
    name: 'L1 QueryBuilder contains a nested array',
    service: 'provenance',
    request: () => qb(filtered({ 'attributes.x': { contains: [[1, [2]], { a: 1 }] } })),
    expect: { status: ['2xx', 400, 500], message: /contains/i },
  },
  // M2: query strings and bodies never reach the log (the sentinel is in the quoted parts).
  {
    name: 'M2 full_type with a sentinel',
    service: 'provenance',
    request: (_s, sentinel) => get(`/api/v4/nodes/?full_type="${sentinel}"`),
    expect: aiida500(/full type .* concatenator symbol/),
  },
  {
    name: 'M2 unknown filter column with a sentinel',
    service: 'provenance',
    request: (_s, sentinel) => get(`/api/v4/nodes?${sentinel}=1`),
    expect: aiida500(/is not a column of/),
  },
  {
    name: 'M2 QueryBuilder projection with a sentinel',
    service: 'provenance',
    request: (_s, sentinel) => qb({ path: [{ entity_type: 'node.Node.', tag: 'n' }], project: { n: [sentinel] } }),
    expect: aiida500(/is not a column of|not a valid|projection/i),
  },
  {
    name: 'M2 a 900 KB QueryBuilder body',
    service: 'provenance',
    request: (_s, sentinel) =>
      qb({ path: [{ entity_type: 'node.Node.', tag: 'n' }], project: { n: [`${sentinel}${'x'.repeat(900_000)}`] } }),
    expect: aiida500(/is not a column of|not a valid|projection/i, 413),
  },
  {
    name: 'M2 a 15 KB query string',
    service: 'provenance',
    request: (_s, sentinel) => get(`/api/v4/nodes?${sentinel}${'y'.repeat(15_000)}=1`),
    expect: aiida500(/is not a column of/, 414, 431),
  },
  // The reference's deliberate 500s keep answering as it does.
  {
    name: 'deliberate perpage=0',
    service: 'provenance',
    request: () => get('/api/v4/nodes/page/1?perpage=0'),
    expect: aiida500(/^division by zero$/),
  },
  {
    name: 'deliberate QueryBuilder without path',
    service: 'provenance',
    request: () => qb({ project: {} }),
    expect: aiida500(/^'path'$/),
  },
  {
    name: 'deliberate QueryBuilder unknown operator',
    service: 'provenance',
    request: () => qb(filtered({ id: { '~~': 1 } })),
    expect: aiida500(/~~/),
  },
  {
    name: 'deliberate QueryBuilder unknown joining keyword',
    service: 'provenance',
    request: () => qb(chain(2, 'with_friends')),
    expect: aiida500(/with_friends/),
  },
  {
    name: 'deliberate QueryBuilder func sum',
    service: 'provenance',
    request: () => qb({ ...nodes, project: { n: [{ id: { func: 'sum' } }] } }),
    expect: aiida500(/Invalid function specification sum/),
  },
  {
    name: 'negative limit',
    service: 'provenance',
    request: () => get('/api/v4/nodes?limit=-1'),
    expect: { status: 400 },
  },
  // No read outside the archive.
  {
    name: 'traversal repo/contents ../../etc/passwd',
    service: 'provenance',
    request: (s) => get(`/api/v4/nodes/${s.nodeUuid}/repo/contents?filename="../../../../etc/passwd"`),
    expect: { ...aiida500(/does not exist|not a file|not a directory/, 400, 404), forbid: /root:/ },
  },
  {
    name: 'traversal repo/contents /etc/passwd',
    service: 'provenance',
    request: (s) => get(`/api/v4/nodes/${s.nodeUuid}/repo/contents?filename=/etc/passwd`),
    expect: { ...aiida500(/does not exist|not a file|not a directory/, 400, 404), forbid: /root:/ },
  },
  {
    name: 'traversal repo/contents %00',
    service: 'provenance',
    request: (s) => get(`/api/v4/nodes/${s.nodeUuid}/repo/contents?filename=a%00/../../etc/passwd`),
    expect: { ...aiida500(/does not exist|not a file|not a directory/, 400, 404), forbid: /root:/ },
  },
  {
    name: 'traversal repo/list ../..',
    service: 'provenance',
    request: (s) => get(`/api/v4/nodes/${s.nodeUuid}/repo/list?filename=../..`),
    expect: { ...aiida500(/does not exist|not a file|not a directory/, 400, 404), forbid: /etc|passwd/ },
  },
  {
    name: 'traversal profile=../../etc',
    service: 'provenance',
    request: () => get('/api/v4/nodes?profile=../../etc/passwd'),
    expect: { status: [400, 404], forbid: /root:/ },
  },
  {
    name: 'traversal %2e%2e in the path',
    service: 'provenance',
    request: () => get('/api/v4/%2e%2e/%2e%2e/etc/passwd'),
    expect: { status: 404, forbid: /root:/ },
  },
  // L4: router and parser errors in the service's shape.
  {
    name: 'L4 a 10,000-character path',
    service: 'provenance',
    request: () => get(`/api/v4/nodes/${'a'.repeat(10_000)}`),
    expect: { status: '4xx' },
  },
  {
    name: 'L4 bad percent-encoding',
    service: 'provenance',
    request: () => get('/api/v4/nodes/%ff%fe'),
    expect: { status: '4xx' },
  },
  ...hostileBodies({
    service: 'provenance',
    method: 'POST',
    path: QB,
    headers: () => json,
    badJson: aiida500(REFERENCE_INPUT_ERROR, 400),
    notObject: aiida500(REFERENCE_INPUT_ERROR, 400),
    badShape: aiida500(REFERENCE_INPUT_ERROR, 400),
  }),
];
