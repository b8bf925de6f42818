import type { Case, Secrets } from '../case.js';
import { readKeyUse } from '../key-use.js';
import { deep, hostileBodies } from './hostile-bodies.js';

export const TINY = 'atrium/tiny-test-model';
/** The fake upstream's model: it honours `n` and reports the summed usage, as vLLM does. */
export const ECHO = 'fuzz/echo';
export const SMALL_BUDGET = 100;

const json = { 'content-type': 'application/json' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}`, ...json });
const chat = (model: string, extra: Record<string, unknown> = {}, content = 'hi') =>
  JSON.stringify({ model, messages: [{ role: 'user', content }], ...extra });
const post = (path: string, headers: Record<string, string>, body: string | Buffer) => ({
  method: 'POST',
  path,
  headers,
  body,
});

const budgetHeld: Case['check'] = async (target) => {
  // Leases go back to the database within about a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const used = await readKeyUse(target.database, 'fuzz-small');
  return used > SMALL_BUDGET ? `stored period_used ${used} exceeds the key's budget of ${SMALL_BUDGET}` : undefined;
};

const nestedSchema = (depth: number) =>
  `{"model":"${TINY}","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"deep","schema":${deep(depth, '{"type":"object","properties":{"a":', '}}', '{"type":"string"}')}}}}`;

export const inferenceCases: Case[] = [
  // M1: the bearer check must follow the route, not the raw URL prefix.
  {
    name: 'M1 //v1/models without a key',
    service: 'inference',
    request: () => ({ method: 'GET', path: '//v1/models' }),
    expect: { status: 401 },
  },
  {
    name: 'M1 /%761/models without a key',
    service: 'inference',
    request: () => ({ method: 'GET', path: '/%761/models' }),
    expect: { status: 401 },
  },
  {
    name: 'M1 /%761/chat/completions without a key',
    service: 'inference',
    request: () => post('/%761/chat/completions', json, chat(TINY)),
    expect: { status: 401 },
  },
  {
    name: 'M1 //v1/messages without a key (Anthropic shape)',
    service: 'inference',
    request: () =>
      post(
        '//v1/messages',
        json,
        JSON.stringify({ model: TINY, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
      ),
    expect: { status: 401 },
  },
  {
    name: 'M1 //v1/embeddings without a key',
    service: 'inference',
    request: () => post('//v1/embeddings', json, JSON.stringify({ model: TINY, input: 'hi' })),
    expect: { status: 401 },
  },
  {
    name: 'M1 /v1/./models without a key',
    service: 'inference',
    request: () => ({ method: 'GET', path: '/v1/./models' }),
    expect: { status: [401, 404] },
  },
  {
    name: 'M1 /x/../v1/models without a key',
    service: 'inference',
    request: () => ({ method: 'GET', path: '/x/../v1/models' }),
    expect: { status: [401, 404] },
  },
  {
    name: 'M1 /V1/models without a key',
    service: 'inference',
    request: () => ({ method: 'GET', path: '/V1/models' }),
    expect: { status: [401, 404] },
  },
  // M2-style markers: credentials and query strings must never reach the log.
  {
    name: 'sentinel bearer key',
    service: 'inference',
    request: (_s, sentinel) => ({
      method: 'GET',
      path: '/v1/models',
      headers: { authorization: `Bearer sk-${sentinel}` },
    }),
    expect: { status: 401 },
  },
  {
    name: 'sentinel x-api-key on messages',
    service: 'inference',
    request: (_s, sentinel) =>
      post(
        '/v1/messages',
        { 'x-api-key': `sk-ant-${sentinel}`, ...json },
        JSON.stringify({ model: TINY, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
      ),
    expect: { status: 401 },
  },
  {
    name: 'sentinel cookie on the UI',
    service: 'inference',
    request: (_s, sentinel) => ({
      method: 'GET',
      path: '/ui/',
      headers: { cookie: `atrium_session=${sentinel}; other=${sentinel}` },
    }),
    expect: { status: [200, 302, 303] },
  },
  {
    name: 'sentinel query string on /v1/models',
    service: 'inference',
    request: (s, sentinel) => ({
      method: 'GET',
      path: `/v1/models?q=${sentinel}&key=${sentinel}`,
      headers: bearer(s.demoKey),
    }),
    expect: { status: 200 },
  },
  {
    name: 'sentinel prompt to the tiny model',
    service: 'inference',
    request: (s, sentinel) =>
      post('/v1/chat/completions', bearer(s.demoKey), chat(TINY, { max_tokens: 4 }, `say ${sentinel}`)),
    expect: { status: 200 },
  },
  {
    name: 'sentinel in an unknown model name',
    service: 'inference',
    request: (s, sentinel) => post('/v1/chat/completions', bearer(s.demoKey), chat(`x/${sentinel}`)),
    expect: { status: [400, 403, 404] },
  },
  // H1: n choices must be reserved; the stored use must never pass the budget.
  {
    name: 'H1 n=128 with a 100-token key',
    service: 'inference',
    request: (s: Secrets) => post('/v1/chat/completions', bearer(s.smallKey), chat(ECHO, { max_tokens: 20, n: 128 })),
    expect: { status: [400, 429] },
    check: budgetHeld,
  },
  {
    name: 'H1 n=128 without max_tokens',
    service: 'inference',
    request: (s: Secrets) => post('/v1/chat/completions', bearer(s.smallKey), chat(ECHO, { n: 128 })),
    expect: { status: [400, 429] },
    check: budgetHeld,
  },
  {
    name: 'H1 n=4 x 20 streamed without include_usage',
    service: 'inference',
    request: (s: Secrets) =>
      post('/v1/chat/completions', bearer(s.smallKey), chat(ECHO, { max_tokens: 20, n: 4, stream: true })),
    expect: { status: [200, 400, 429] },
    check: budgetHeld,
  },
  {
    name: 'H1 n=2 x 20 (fits the budget)',
    service: 'inference',
    request: (s: Secrets) => post('/v1/chat/completions', bearer(s.smallKey), chat(ECHO, { max_tokens: 20, n: 2 })),
    expect: { status: [200, 429] },
    check: budgetHeld,
  },
  // H2: count_tokens needs a key, and is bounded in size and time.
  {
    name: 'H2 count_tokens without a key',
    service: 'inference',
    request: () =>
      post(
        '/v1/messages/count_tokens',
        json,
        JSON.stringify({ model: TINY, messages: [{ role: 'user', content: 'hi' }] }),
      ),
    expect: { status: 401 },
  },
  {
    name: 'H2 count_tokens of 30 MB',
    service: 'inference',
    request: (s) =>
      post(
        '/v1/messages/count_tokens',
        { 'x-api-key': s.demoKey, ...json },
        JSON.stringify({ model: TINY, messages: [{ role: 'user', content: 'lorem ipsum '.repeat(2_500_000) }] }),
      ),
    expect: { status: [400, 413] },
  },
  {
    name: 'H2 count_tokens of 900 KB',
    service: 'inference',
    request: (s) =>
      post(
        '/v1/messages/count_tokens',
        { 'x-api-key': s.demoKey, ...json },
        JSON.stringify({ model: TINY, messages: [{ role: 'user', content: 'lorem ipsum '.repeat(75_000) }] }),
      ),
    expect: { status: [200, 400] },
  },
  {
    name: 'H2 embeddings of 10 MB',
    service: 'inference',
    request: (s) =>
      post('/v1/embeddings', bearer(s.demoKey), JSON.stringify({ model: TINY, input: 'lorem ipsum '.repeat(875_000) })),
    expect: { status: [400, 413] },
  },
  {
    name: 'H2 embeddings of 2,048 inputs with the 100-token key',
    service: 'inference',
    request: (s) =>
      post(
        '/v1/embeddings',
        bearer(s.smallKey),
        JSON.stringify({ model: TINY, input: Array.from({ length: 2048 }, () => 'lorem ipsum '.repeat(100)) }),
      ),
    expect: { status: [400, 429] },
    check: budgetHeld,
  },
  {
    name: 'H2 chat of 30 MB',
    service: 'inference',
    request: (s) => post('/v1/chat/completions', bearer(s.demoKey), chat(TINY, {}, 'lorem ipsum '.repeat(2_500_000))),
    expect: { status: [400, 413] },
  },
  // L2: deep response_format.
  {
    name: 'L2 response_format 5,000 deep',
    service: 'inference',
    request: (s) => post('/v1/chat/completions', bearer(s.demoKey), nestedSchema(5000)),
    expect: { status: 400 },
  },
  {
    name: 'L2 tools parameters 5,000 deep',
    service: 'inference',
    request: (s) =>
      post(
        '/v1/chat/completions',
        bearer(s.demoKey),
        `{"model":"${TINY}","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep(5000, '{"type":"object","properties":{"a":', '}}', '{}')}}}]}`,
      ),
    expect: { status: 400 },
  },
  // L4: router and parser errors in the service's shape.
  {
    name: 'L4 a 10,000-character path',
    service: 'inference',
    request: (s) => ({ method: 'GET', path: `/v1/models/${'a'.repeat(10_000)}`, headers: bearer(s.demoKey) }),
    expect: { status: '4xx' },
  },
  {
    name: 'L4 bad percent-encoding',
    service: 'inference',
    request: (s) => ({ method: 'GET', path: '/v1/models/%ff%fe', headers: bearer(s.demoKey) }),
    expect: { status: '4xx' },
  },
  {
    name: 'L4 a truncated percent-escape',
    service: 'inference',
    request: (s) => ({ method: 'GET', path: '/v1/models/%e', headers: bearer(s.demoKey) }),
    expect: { status: '4xx' },
  },
  ...hostileBodies({
    service: 'inference',
    method: 'POST',
    path: '/v1/chat/completions',
    headers: (s) => bearer(s.demoKey),
    badJson: { status: 400 },
    notObject: { status: 400 },
    badShape: { status: 400 },
  }),
];
