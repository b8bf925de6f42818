import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully } from '@atrium/core';
import { silentLogger } from '@atrium/core/testing';
import OpenAI, { type ClientOptions } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { expect, it } from 'vitest';
import { makeCertificate } from '../../core/test/tls-certificate.js';
import { buildInferenceApp, inferenceConfigSchema } from '../src/index.js';
import { startFixedUpstream } from './support/fixed-upstream.js';
import { TEST_KEY } from './support/gateway.js';

it('the official OpenAI client talks to the gateway over HTTPS, trusting a certificate made for the test', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-https-'));
  const certificate = makeCertificate(dataDir);
  const upstream = await startFixedUpstream();
  const config = inferenceConfigSchema.parse({
    port: 0,
    auth: { demoKey: TEST_KEY },
    tls: { cert: certificate.certFile, key: certificate.keyFile },
    models: [{ id: 'acme/m', contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
  });
  const app = await buildInferenceApp(config, { logger: silentLogger, dataDir, accessLog: false });
  const dispatcher = new Agent({ connect: { ca: certificate.pem } });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseURL = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1`;
    const client = new OpenAI({
      apiKey: TEST_KEY,
      baseURL,
      maxRetries: 0,
      fetch: undiciFetch as unknown as typeof fetch,
      // undici's own fetch takes its dispatcher; the SDK passes fetchOptions through.
      fetchOptions: { dispatcher } as unknown as ClientOptions['fetchOptions'],
    });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['acme/m']);
    const messages = [{ role: 'user' as const, content: 'Capital of France?' }];
    const completion = await client.chat.completions.create({ model: 'acme/m', messages, max_tokens: 16 });
    expect(completion.choices[0]?.message.content).toBe('Paris.');
    const stream = await client.chat.completions.create({ model: 'acme/m', messages, max_tokens: 16, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Paris.');

    // The same over HTTP/2: a streamed answer relayed on an HTTP/2 stream.
    const session = connect(baseURL.replace('/v1', ''), { ca: certificate.pem });
    try {
      const h2 = session.request({
        ':method': 'POST',
        ':path': '/v1/chat/completions',
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
      });
      h2.end(JSON.stringify({ model: 'acme/m', messages, max_tokens: 16, stream: true }));
      let status = 0;
      h2.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      let body = '';
      h2.setEncoding('utf8');
      for await (const chunk of h2) body += chunk;
      expect(status).toBe(200);
      expect(body).toContain('"content":"Paris"');
      expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    } finally {
      session.close();
    }

    // A client that does not trust the certificate gets no answer at all.
    const untrusting = new OpenAI({ apiKey: TEST_KEY, baseURL, maxRetries: 0 });
    await expect(untrusting.models.list()).rejects.toThrow(/Connection error/);
  } finally {
    await closeGracefully(app, 2_000);
    await dispatcher.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
