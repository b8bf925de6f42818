import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully } from '@atrium/core';
import { silentLogger, until } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { makeCertificate } from '../../core/test/tls-certificate.js';
import { buildInferenceApp, type InferenceConfig, inferenceConfigSchema } from '../src/index.js';
import { startFixedUpstream } from './support/fixed-upstream.js';
import { TEST_KEY } from './support/gateway.js';

/** The model ids `GET /v1/models` lists over a new connection trusting only `ca`. */
const modelIds = (port: number, ca: string) =>
  new Promise<string[]>((resolve, reject) => {
    const get = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/models',
        ca,
        agent: false,
        headers: { authorization: `Bearer ${TEST_KEY}` },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve((JSON.parse(body) as { data: { id: string }[] }).data.map((m) => m.id)));
      },
    );
    get.on('error', reject);
    get.end();
  });

it('one SIGHUP re-reads both the TLS certificate and the catalogue', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-sighup-'));
  const [first, second, live] = ['first', 'second', 'live'].map((name) => makeCertificate(dir, name));
  if (!first || !second || !live) throw new Error('certificates');
  copyFileSync(first.certFile, live.certFile);
  copyFileSync(first.keyFile, live.keyFile);
  const upstream = await startFixedUpstream();
  const catalogue = (...ids: string[]): InferenceConfig =>
    inferenceConfigSchema.parse({
      port: 0,
      auth: { demoKey: TEST_KEY },
      tls: { cert: live.certFile, key: live.keyFile },
      models: ids.map((id) => ({
        id,
        contextLength: 4096,
        backend: { type: 'upstream', replicas: [upstream.origin] },
      })),
    });
  let config = catalogue('acme/a');
  const app = await buildInferenceApp(config, {
    logger: silentLogger,
    dataDir: dir,
    accessLog: false,
    readConfig: () => config,
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    expect(await modelIds(port, first.pem)).toEqual(['acme/a']);

    copyFileSync(second.certFile, live.certFile);
    copyFileSync(second.keyFile, live.keyFile);
    config = catalogue('acme/a', 'acme/b');
    process.kill(process.pid, 'SIGHUP');
    await until(
      async () => (await modelIds(port, second.pem).catch(() => [])).length === 2,
      5_000,
      'the new certificate and catalogue are served',
    );
    expect(await modelIds(port, second.pem)).toEqual(['acme/a', 'acme/b']);
    await expect(modelIds(port, first.pem)).rejects.toThrow();
  } finally {
    await closeGracefully(app, 2_000);
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
