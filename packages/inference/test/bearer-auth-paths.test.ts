import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeError } from '@atrium/core';
import { listen } from '@atrium/core/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBearerAuth } from '../src/http/auth.js';
import { openInferenceDatabase } from '../src/storage/open.js';
import { KeyStore } from '../src/tenancy/key-store.js';
import { type FixedUpstream, startFixedUpstream } from './support/fixed-upstream.js';
import { startGateway, TEST_KEY, type TestGateway } from './support/gateway.js';

const MODEL = 'acme/m';
const CHAT = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
const MESSAGES = JSON.stringify({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
const RESPONSES = JSON.stringify({ model: MODEL, input: 'hi' });

interface RawAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: bodies checked field by field
  body: any;
}

/** Sends `path` exactly as written (as `curl --path-as-is` does; fetch would normalise it). */
function send(base: string, method: string, path: string, body?: string, key?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const openAiMissingKey = { error: { type: 'authentication_error', code: 'missing_api_key' } };
const anthropicMissingKey = { type: 'error', error: { type: 'authentication_error' } };

describe('the /v1 bearer check follows the route, not the raw path', () => {
  let upstream: FixedUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFixedUpstream();
    gateway = await startGateway({
      models: [{ id: MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it.each([
    ['GET', '//v1/models', undefined, openAiMissingKey],
    ['GET', '/%761/models', undefined, openAiMissingKey],
    ['GET', '/v1/./models', undefined, openAiMissingKey],
    ['GET', '/v1/../v1/models', undefined, openAiMissingKey],
    ['GET', '/v1/%2e/models', undefined, openAiMissingKey],
    ['POST', '/%761/chat/completions', CHAT, openAiMissingKey],
    ['POST', '//v1/chat/completions', CHAT, openAiMissingKey],
    ['POST', '//v1/embeddings', '{"model":"acme/m","input":"hi"}', openAiMissingKey],
    ['POST', '//v1/messages', MESSAGES, anthropicMissingKey],
    ['POST', '/%761/messages/count_tokens', MESSAGES, anthropicMissingKey],
    ['POST', '//v1/responses', RESPONSES, openAiMissingKey],
    ['GET', '/%761/responses/resp_1', undefined, openAiMissingKey],
    ['DELETE', '//v1/responses/resp_1', undefined, openAiMissingKey],
  ])('%s %s without a key: 401 in the route’s error shape', async (method, path, body, shape) => {
    const answer = await send(gateway.base, method, path, body);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject(shape);
  });

  it.each([
    ['POST', '//v1/chat/completions', '{"model":'],
    ['POST', '//v1/messages', '{"max_tokens":"x"}'],
  ])('%s %s checks the key before the body', async (method, path, body) => {
    expect((await send(gateway.base, method, path, body)).status).toBe(401);
  });

  it.each([
    ['GET', '//v1/models', undefined],
    ['GET', '/%761/models', undefined],
    ['POST', '/%761/chat/completions', CHAT],
    ['POST', '//v1/messages', MESSAGES],
    ['POST', '/%761/responses', RESPONSES],
  ])('%s %s with a valid key is served', async (method, path, body) => {
    const answer = await send(gateway.base, method, path, body, TEST_KEY);
    expect(answer.status).toBe(200);
  });
});

describe('registerBearerAuth on its own', () => {
  it('guards a /v1 route reached through a path the router only matches after merging slashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrium-auth-'));
    const database = await openInferenceDatabase(`sqlite:${join(dir, 'keys.db')}`);
    const app = Fastify({ routerOptions: { ignoreDuplicateSlashes: true } });
    try {
      app.setErrorHandler((error, _request, reply) => reply.code(normalizeError(error).status).send());
      registerBearerAuth(app, new KeyStore(database.db));
      app.get('/v1/secret', () => 'served');
      app.get('/open', () => 'open');
      const base = await listen(app);
      expect((await send(base, 'GET', '//v1/secret')).status).toBe(401);
      expect((await send(base, 'GET', '//open')).status).toBe(200);
    } finally {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
